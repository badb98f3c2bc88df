import Foundation
import TestSupport

/// systemd/badged.service as the hardening tests read it: its settings, the system calls its
/// `SystemCallFilter=` lines allow (expanded by systemd's own tables, so the tests follow
/// systemd rather than a copy), and its exposure score.
enum ServiceUnit {
  static let analyze = "/usr/bin/systemd-analyze"

  /// Every `Key=value` line of the repository's badged.service, in order.
  static func settings() throws -> [(key: String, value: String)] {
    let text = try String(contentsOfFile: Repository.path("systemd/badged.service"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
      return (String(line[..<equals]), String(line[line.index(after: equals)...]))
    }
  }

  /// The system calls the unit allows, as systemd computes them: the first
  /// `SystemCallFilter=` line that does not start with `~` is an allow list, each later line
  /// adds to it, or with `~` takes away from it.
  static func allowedSystemCalls() throws -> Set<String> {
    var allowed: Set<String>?
    var groups: [String: Set<String>] = [:]
    for (key, value) in try settings() where key == "SystemCallFilter" {
      let deny = value.hasPrefix("~")
      var names = Set<String>()
      for word in value.dropFirst(deny ? 1 : 0).split(separator: " ") {
        names.formUnion(try expand(String(word), &groups))
      }
      if deny {
        allowed?.subtract(names)
      } else {
        allowed = (allowed ?? []).union(names)
      }
    }
    guard let allowed else { throw TestFailure("badged.service has no SystemCallFilter= allow list") }
    return allowed
  }

  /// A system call's name, or the calls of a `@group` (`systemd-analyze syscall-filter`
  /// lists its members, groups among them, one a line after the group's name and comment).
  private static func expand(_ name: String, _ groups: inout [String: Set<String>]) throws -> Set<String> {
    guard name.hasPrefix("@") else { return [name] }
    if let known = groups[name] { return known }
    let listing = try run(analyze, ["syscall-filter", "--no-pager", name])
    guard listing.status == 0 else { throw TestFailure("systemd-analyze syscall-filter \(name): \(listing.stderr)") }
    var members = Set<String>()
    for line in listing.stdout.split(separator: "\n").dropFirst() {
      let word = line.trimmingCharacters(in: .whitespaces)
      if word.isEmpty || word.hasPrefix("#") { continue }
      members.formUnion(try expand(word, &groups))
    }
    groups[name] = members
    return members
  }

  /// Writes the allowed calls one a line, as `seccomp-run --allow` reads them.
  static func writeAllowList(in folder: TemporaryFolder) throws -> String {
    try folder.write("allowed-syscalls", try allowedSystemCalls().sorted().joined(separator: "\n") + "\n")
  }

  /// The overall exposure of `unit` in `systemd-analyze security --offline=true --user`, with
  /// `unitPath` as the folder units and drop-ins are read from; the figure of its last line
  /// (`→ Overall exposure level for badged.service: 5.9 MEDIUM 😐`).
  static func exposure(of unit: String, unitPath: String, runtime: String) throws -> (score: Double, report: String) {
    let result = try run(
      analyze, ["security", "--offline=true", "--user", "--no-pager", unit],
      environment: ["XDG_RUNTIME_DIR": runtime, "SYSTEMD_UNIT_PATH": unitPath + ":"])
    let prefix = "Overall exposure level for \(unit): "
    guard let line = result.stdout.split(separator: "\n").last(where: { $0.contains(prefix) }),
      let range = line.range(of: prefix),
      let score = Double(line[range.upperBound...].prefix { $0 == "." || $0.isNumber })
    else { throw TestFailure("no exposure level in: \(result.stdout)\(result.stderr)") }
    return (score, result.stdout)
  }
}
