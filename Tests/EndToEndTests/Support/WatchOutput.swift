import Foundation

extension WatchProcess {
  /// Every line that arrives until none has come for `quiet` seconds, or `limit` seconds have
  /// passed, each with the time it was read.
  func collect(quiet: Double, limit: Double = 10) -> [(time: Date, line: String)] {
    let end = Date().addingTimeInterval(limit)
    var lines: [(Date, String)] = []
    while Date() < end {
      guard let line = try? readLine(timeout: min(quiet, max(0.01, end.timeIntervalSinceNow))) else { break }
      lines.append((Date(), line))
    }
    return lines
  }

  /// The lines of `collect(quiet:limit:)` alone.
  func lines(quiet: Double, limit: Double = 10) -> [String] {
    collect(quiet: quiet, limit: limit).map(\.line)
  }
}

/// `line` parsed as one JSON object.
func jsonObject(_ line: String) throws -> [String: Any] {
  guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
    throw TestFailure("not a JSON object: \(line)")
  }
  return object
}

/// One line of `badgectl watch --format frames`.
struct Frame {
  let t: Double
  let channel: String
  let label: String
  let previous: String
  let dot: Bool
  let scale: Double
  let opacity: Double
  let offset: Double
  let dotScale: Double
  let dotOpacity: Double

  init(_ line: String) throws {
    let object = try jsonObject(line)
    func number(_ key: String) throws -> Double {
      guard let value = object[key] as? Double else { throw TestFailure("no number '\(key)' in \(line)") }
      return value
    }
    func text(_ key: String) throws -> String {
      guard let value = object[key] as? String else { throw TestFailure("no string '\(key)' in \(line)") }
      return value
    }
    t = try number("t")
    channel = try text("channel")
    label = try text("label")
    previous = try text("previous")
    guard let dot = object["dot"] as? Bool else { throw TestFailure("no 'dot' in \(line)") }
    self.dot = dot
    scale = try number("scale")
    opacity = try number("opacity")
    offset = try number("offset")
    dotScale = try number("dotScale")
    dotOpacity = try number("dotOpacity")
  }
}
