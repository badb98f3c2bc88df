import BadgeSystem
import Glibc
import Testing

/// A child's standard output and standard error on pipes of their own.
@Suite struct ChildProcessOutputTests {
  @Test func outputAndErrorsArriveApart() throws {
    let output = try FileDescriptor.pipe(nonBlockingRead: false, nonBlockingWrite: false)
    let errors = try FileDescriptor.pipe(nonBlockingRead: false, nonBlockingWrite: false)
    let pid = try ChildProcess.spawn(
      ["/bin/sh", "-c", "printf '42\\n'; printf 'warning: slow\\n' >&2; printf '43\\n'"],
      output: .separate(output: output.write, errors: errors.write))
    output.write.close()
    errors.write.close()
    defer {
      output.read.close()
      errors.read.close()
    }
    #expect(try readAll(output.read) == "42\n43\n")
    #expect(try readAll(errors.read) == "warning: slow\n")
    var status: CInt = 0
    #expect(waitpid(pid, &status, 0) == pid)
    #expect(status == 0)
  }

  /// Everything `fd` gives until its end.
  private func readAll(_ fd: FileDescriptor) throws -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while true {
      let result = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try fd.read(into: raw) }
      guard case .processed(let n) = result else { break }
      bytes += buffer[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
