import BadgeCore
import BadgeLog
import BadgeMesh
import BadgeProtocol
import BadgeSystem
import Glibc

/// The bridge's connection to its badged, as a line stream: lines in, lines out, and nothing
/// of what they say (that is `DaemonLink`'s).
///
/// Output is buffered and sent as the socket takes it, with the socket watched for writing
/// while some waits, so that a long run of requests never blocks the loop: the daemon stops
/// reading a client whose replies go unread, and a bridge blocked in a write would never read
/// them.
final class DaemonSocket {
  let path: String
  private let loop: EventLoop
  private var fd: FileDescriptor?
  private var source: IOSource?
  private var reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 20)
  private var output: [UInt8] = []
  private var sent = 0

  /// A line from the daemon, without its LF.
  var onLine: (String) -> Void = { _ in }
  /// The connection ended (the daemon went away, or an error), with why.
  var onClosed: (LinkFailure) -> Void = { _ in }

  init(loop: EventLoop, path: String) {
    self.loop = loop
    self.path = path
  }

  var isConnected: Bool { fd != nil }

  /// Connects; the failure says why not (no daemon, no socket file, permission).
  func connect() throws(SystemError) {
    let fd = try UnixSocket.connect(path: path)
    do throws(SystemError) {
      do throws(Errno) {
        try fd.setNonBlocking()
      } catch {
        throw SystemError("make the connection to '\(path)' non-blocking", error)
      }
      source = try loop.addIO(fd: fd, events: .readable) { [unowned self] events in ready(events) }
    } catch {
      fd.close()
      throw error
    }
    self.fd = fd
  }

  /// Queues a request line (without its LF) and sends what the socket takes now.
  func send(_ line: String) {
    guard fd != nil else { return }
    output.append(contentsOf: line.utf8)
    output.append(0x0A)
    flush()
  }

  /// Closes the connection without reporting it (the caller decided to).
  func close() {
    source?.cancel()
    source = nil
    fd?.close()
    fd = nil
    output.removeAll()
    sent = 0
    reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 20)
  }

  private func ready(_ events: IOEvents) {
    if events.contains(.writable) { flush() }
    guard fd != nil else { return }
    if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) { read() }
  }

  /// Reads what the socket has, at most four reads a turn, and hands over every whole line.
  private func read() {
    guard let fd else { return }
    for _ in 0..<4 {
      let result = (try? reader.read(from: fd).get()) ?? .endOfFile
      var lines: [String] = []
      reader.forEachFrame { frame in
        // A line over the limit is no line a daemon sends; it is dropped.
        if case .line(let bytes) = frame { lines.append(String(decoding: bytes, as: UTF8.self)) }
        return true
      }
      for line in lines {
        onLine(line)
        guard self.fd != nil else { return }
      }
      switch result {
      case .processed: continue
      case .wouldBlock: return
      case .endOfFile:
        closed(.lost("badged closed the connection"))
        return
      }
    }
  }

  private func flush() {
    guard let fd else { return }
    while sent < output.count {
      let result: Result<IOResult, Errno> = output.withUnsafeBytes { raw in
        Result { () throws(Errno) in try fd.write(UnsafeRawBufferPointer(rebasing: raw[sent...]), socket: true) }
      }
      switch result {
      case .success(.processed(let n)): sent += n
      case .success(.wouldBlock), .success(.endOfFile):
        source?.setEvents([.readable, .writable])
        return
      case .failure(let error):
        closed(.lost("cannot write to badged: \(error)"))
        return
      }
    }
    output.removeAll(keepingCapacity: output.count <= 1 << 16)
    sent = 0
    source?.setEvents(.readable)
  }

  private func closed(_ failure: LinkFailure) {
    close()
    onClosed(failure)
  }
}
