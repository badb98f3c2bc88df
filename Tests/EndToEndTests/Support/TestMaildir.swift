import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A Maildir of a test's own, with the count the sources must find in it worked out here, by
/// the rule (design §5): messages in `new/`, and in `cur/` those without `S` or `T` in their
/// `:2,` flags.
struct TestMaildir {
  let root: String
  private var serial = 0

  init(in folder: TemporaryFolder, name: String = "Mail") throws {
    root = folder.file(name)
    for sub in ["cur", "new", "tmp"] {
      try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
    }
  }

  /// Delivers a message as a delivery agent does: written in `tmp/`, then `rename(2)` into
  /// `new/`. Its name.
  @discardableResult
  mutating func deliver() throws -> String {
    serial += 1
    let name = "\(serial).M\(serial)P\(getpid()).test"
    try "Subject: \(serial)\n\nbody\n".write(toFile: root + "/tmp/" + name, atomically: false, encoding: .utf8)
    try rename(from: "tmp/" + name, to: "new/" + name)
    return name
  }

  /// A message put straight into `cur/` with `flags`. Its name there.
  @discardableResult
  mutating func place(flags: String) throws -> String {
    serial += 1
    let name = "\(serial).M\(serial)P\(getpid()).test:2,\(flags)"
    try "Subject: \(serial)\n\nbody\n".write(toFile: root + "/cur/" + name, atomically: false, encoding: .utf8)
    return name
  }

  /// `rename(2)` of `from` to `to`, both relative to the root.
  func rename(from: String, to: String) throws {
    guard Glibc.rename(root + "/" + from, root + "/" + to) == 0 else {
      throw TestFailure("rename \(from) → \(to): \(String(cString: strerror(errno)))")
    }
  }

  /// What the sources must count now.
  func unread() throws -> Int {
    let new = try FileManager.default.contentsOfDirectory(atPath: root + "/new").count
    let cur = try FileManager.default.contentsOfDirectory(atPath: root + "/cur").filter { name in
      guard let info = name.range(of: ":2,") else { return true }
      let flags = name[info.upperBound...]
      return !flags.contains("S") && !flags.contains("T")
    }
    return new + cur.count
  }
}
