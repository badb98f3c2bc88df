import Foundation

/// badged under strace: the order of its system calls (`-o`, with file descriptors named by
/// `-y`), and failures injected into chosen calls (`-e inject=`). strace starts the daemon as
/// its child, so signals go to the tracee (`tracee(of:)`), not to strace.
enum SyscallTrace {
  static let strace = "/usr/bin/strace"

  /// A `DaemonProcess` wrapper that writes the trace of `calls` to `output` (with up to 4096
  /// bytes of each call's data) and applies the `inject` rules (`fdatasync:error=EIO:when=3+`).
  static func wrapper(
    output: String = "/dev/null", calls: [String], inject: [String] = [], paths: [String] = []
  ) -> [String] {
    [strace, "-f", "-qq", "-y", "-s", "4096", "-o", output, "-e", "trace=" + calls.joined(separator: ",")]
      + inject.flatMap { ["-e", "inject=" + $0] } + paths.flatMap { ["-P", $0] } + ["--"]
  }

  /// The pid of the program strace (`pid`) runs.
  static func tracee(of pid: Int32) throws -> Int32 {
    var children = ""
    _ = waitUntil {
      children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
      return !children.isEmpty
    }
    guard let child = children.split(separator: " ").first.flatMap({ Int32($0) }) else {
      throw TestFailure("strace (\(pid)) runs no program")
    }
    return child
  }

  /// The trace's lines, without the pid column.
  static func calls(in path: String) throws -> [Substring] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      $0.drop { $0 != " " }.drop { $0 == " " }
    }
  }
}
