import Foundation
import TestSupport

/// A notmuch set-up of one test's own (SOURCES.md, "notmuch in a folder of its own"): a Maildir,
/// a config file naming it, and the real `notmuch` run with `NOTMUCH_CONFIG` pointing at that
/// config. Removed with everything in it when the body returns.
struct NotmuchFolder {
  let root: String
  var mail: String { root + "/mail" }
  var config: String { root + "/config" }

  /// Runs `body` with a new set-up holding `messages` messages (ids `nm1@example.org` …),
  /// indexed by `notmuch new` (so tagged `unread` and `inbox`).
  static func with<R>(messages: Int, _ body: (NotmuchFolder) throws -> R) throws -> R {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("badged-notmuch-\(UUID().uuidString)").path
    let folder = NotmuchFolder(root: root)
    defer { try? FileManager.default.removeItem(atPath: root) }
    for sub in ["cur", "new", "tmp"] {
      try FileManager.default.createDirectory(atPath: folder.mail + "/" + sub, withIntermediateDirectories: true)
    }
    let config = NotmuchConfig.text(mail: folder.mail)
    try config.write(toFile: folder.config, atomically: false, encoding: .utf8)
    for i in 0..<messages { try folder.deliver(i + 1) }
    try folder.notmuch("new")
    return try body(folder)
  }

  /// Writes message `i` into `new/`.
  func deliver(_ i: Int) throws {
    let text = "From: a@example.org\nSubject: \(i)\nMessage-ID: <nm\(i)@example.org>\n\nx\n"
    try text.write(toFile: mail + "/new/\(i).test", atomically: false, encoding: .utf8)
  }

  /// Runs `notmuch` with `arguments` against this set-up and returns what it printed; a failure
  /// is an error with its standard error.
  @discardableResult
  func notmuch(_ arguments: String...) throws -> String {
    let process = command(arguments)
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complained = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw NotmuchFailure(
        arguments: arguments, status: process.terminationStatus, stderr: String(decoding: complained, as: UTF8.self))
    }
    return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Starts `notmuch` with `arguments` against this set-up, its output discarded, and returns
  /// it running.
  func start(_ arguments: String...) throws -> Process {
    let process = command(arguments)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// `notmuch` with `arguments`, `NOTMUCH_CONFIG` naming this set-up's config and `HOME` its
  /// folder (so no file of the user's is read).
  private func command(_ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/notmuch")
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NOTMUCH_CONFIG"] = config
    environment["HOME"] = root
    process.environment = environment
    return process
  }
}

/// `notmuch` exited with a failure.
struct NotmuchFailure: Error {
  let arguments: [String]
  let status: Int32
  let stderr: String
}
