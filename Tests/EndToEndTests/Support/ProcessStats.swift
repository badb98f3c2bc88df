import Foundation

/// The CPU time a process has used so far, in clock ticks (user plus system, fields 14 and 15
/// of `/proc/PID/stat`, counted after the parenthesised command name, which may hold spaces).
func cpuTicks(_ pid: Int32) throws -> Int {
  let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
  guard let close = stat.lastIndex(of: ")") else { throw TestFailure("unreadable /proc/\(pid)/stat") }
  // After ")": state is field 3, so utime (14) and stime (15) are the 12th and 13th words.
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
    throw TestFailure("unreadable /proc/\(pid)/stat: \(stat)")
  }
  return user + system
}

/// A channel's count, as `badgectl get --format json` reports it.
func currentCount(_ channel: String, socket: String) throws -> Int {
  let result = try badgectl(["get", channel, "--format", "json"], socket: socket)
  let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
  guard let count = object?["count"] as? Int else { throw TestFailure("no count in '\(result.stdout)'") }
  return count
}
