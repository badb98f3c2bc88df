import Foundation

/// A folder of the test's own under the temporary directory, removed when the test is done.
final class TestFolder {
  let path: String

  init(_ prefix: String) throws {
    var template = Array("\(NSTemporaryDirectory())/\(prefix).XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: errno \(errno)") }
    path = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Writes `text` to `name` with `mode`, and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
    let target = file(name)
    try text.write(toFile: target, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
    return target
  }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs `arguments` to its end; its standard output, or a failure with its standard error.
/// Standard error goes to a file: a program that leaves a daemon behind (gnome-keyring-daemon)
/// hands it its standard error, which as a pipe would never end.
@discardableResult
func runChecked(_ arguments: [String], environment: [String: String]? = nil, input: String? = nil) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  if let environment { process.environment = environment }
  let output = Pipe()
  let errorFile = "\(NSTemporaryDirectory())/imap-errors-\(UUID().uuidString)"
  _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
  defer { try? FileManager.default.removeItem(atPath: errorFile) }
  let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
  defer { try? errors.close() }
  let standardInput = Pipe()
  process.standardOutput = output
  process.standardError = errors
  process.standardInput = standardInput
  try process.run()
  if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
  try standardInput.fileHandleForWriting.close()
  let printed = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let complaint = FileManager.default.contents(atPath: errorFile) ?? Data()
  guard process.terminationStatus == 0 else {
    throw TestFailure("\(arguments.joined(separator: " ")) failed: \(String(decoding: complaint, as: UTF8.self))")
  }
  return String(decoding: printed, as: UTF8.self)
}
