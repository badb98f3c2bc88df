import Glibc

/// What a program's command line asks for: to run with its options, or only to show its help
/// or its version.
public enum ProgramAction<Options: Equatable>: Equatable {
  case run(Options)
  case help
  case version
}

/// The exit statuses of badged's programs (sysexits.h where one fits).
public enum ProgramExitStatus {
  public static let success: Int32 = 0
  /// Could not start (the event loop, a library).
  public static let failure: Int32 = 1
  /// A command line that cannot be run: `EX_USAGE`.
  public static let usage: Int32 = 64
  /// The config file, or a file it names, cannot be read or is refused: `EX_CONFIG`, which the
  /// units do not restart.
  public static let config: Int32 = 78
}

extension ProgramOptions {
  /// How a program goes on after reading its command line.
  public enum Start<Options> {
    /// Run with these options.
    case run(Options)
    /// End now with this exit status: help or version shown (0), a wrong line reported (64).
    case exit(Int32)
  }

  /// Reads a program's command line with `parse` and answers `--help` and `--version` on
  /// standard output, and a wrong line on standard error with the usage (exit status 64), in
  /// the same words for every program.
  ///
  /// - Parameters:
  ///   - program: the program's name, as its version line and the error's hint give it.
  ///   - usage: its synopsis, shown after a wrong line.
  ///   - help: its whole help text.
  public static func start<Options>(
    program: String, usage: String, help: String, version: String,
    _ parse: () throws(UsageError) -> ProgramAction<Options>
  ) -> Start<Options> {
    do throws(UsageError) {
      switch try parse() {
      case .help:
        show(help, on: STDOUT_FILENO)
        return .exit(ProgramExitStatus.success)
      case .version:
        show("\(program) \(version)\n", on: STDOUT_FILENO)
        return .exit(ProgramExitStatus.success)
      case .run(let options): return .run(options)
      }
    } catch {
      show(
        "Error: \(error)\nUsage: \(usage)\n  See '\(program) --help' for more information.\n", on: STDERR_FILENO)
      return .exit(ProgramExitStatus.usage)
    }
  }

  /// Writes all of `text` to `fd`, as far as it can.
  static func show(_ text: String, on fd: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }
}
