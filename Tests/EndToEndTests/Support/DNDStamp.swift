import Foundation

/// The wall clock in milliseconds, the clock badged stamps do-not-disturb's changes with.
func wallMilliseconds() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

/// The ` at=<unix ms>` that ends a do-not-disturb line once it has changed: when badged made
/// the change, which must lie between `since` (the wall clock before the request) and now.
func dndStamp(_ line: String?, since: UInt64) throws -> UInt64 {
  guard let line, let at = field(line, "at").flatMap({ UInt64($0) }) else {
    throw TestFailure("no at= on '\(line ?? "nothing")'")
  }
  let now = wallMilliseconds()
  guard at >= since, at <= now else { throw TestFailure("at=\(at) of '\(line)' is not between \(since) and \(now)") }
  return at
}
