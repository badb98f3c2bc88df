import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One event of a stream as the test reads it.
struct StreamEvent: Equatable {
  var name: String?
  var id: String?
  var data: String?
  var retry: String?
  var comment: String?
}

/// `GET /events` read with `curl -sN`, event by event (each ends with a blank line).
final class EventStreamReader {
  private let child: Child
  private var input: LineInput

  init(rig: WebRig, token: String?, lastEventID: String? = nil) throws {
    var arguments = ["curl", "-sN"] + rig.curlOptions
    if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
    if let lastEventID { arguments += ["-H", "Last-Event-ID: \(lastEventID)"] }
    child = try Child(arguments + [rig.url + "/events"], environment: Child.environment(), stdout: .pipe)
    input = LineInput(fd: child.output)
  }

  /// The next event; fails when none comes within `timeout` seconds or the stream ends.
  func next(timeout: Double = 10) throws -> StreamEvent {
    var event = StreamEvent()
    var seen = false
    while let line = try input.next(timeout: timeout, what: "the event stream") {
      if line.isEmpty {
        if seen { return event }
        continue
      }
      seen = true
      if line.hasPrefix(":") {
        event.comment = String(line.dropFirst().drop { $0 == " " })
        continue
      }
      let (field, value) = EventStreamReader.split(line)
      switch field {
      case "event": event.name = value
      case "id": event.id = value
      case "data": event.data = value
      case "retry": event.retry = value
      default: break
      }
    }
    throw TestFailure("the event stream ended")
  }

  /// The next event with a name: keep-alive comments and the `retry:` line are skipped.
  func nextEvent(timeout: Double = 10) throws -> StreamEvent {
    while true {
      let event = try next(timeout: timeout)
      if event.name != nil { return event }
    }
  }

  /// Reads until the stream ends (curl exits); whether it did within `timeout` seconds.
  func ended(timeout: Double = 10) -> Bool {
    while true {
      do {
        guard try input.next(timeout: timeout, what: "the event stream") != nil else { return true }
      } catch {
        return false
      }
    }
  }

  private static func split(_ line: String) -> (String, String) {
    guard let colon = line.firstIndex(of: ":") else { return (line, "") }
    var value = line[line.index(after: colon)...]
    if value.first == " " { value = value.dropFirst() }
    return (String(line[..<colon]), String(value))
  }

  func close() {
    child.signal(SIGTERM)
    child.wait()
  }

  deinit { close() }
}
