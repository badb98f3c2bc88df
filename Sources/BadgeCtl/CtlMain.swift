import BadgeCore
import BadgePOSIX

/// `badgectl`: reads the command line into a command, runs it, and returns the exit status.
public enum BadgeCtl {
  public static func main(_ arguments: [String]) -> Int32 {
    Signals.ignoreBrokenPipe()
    do throws(CtlError) {
      switch try invocation(arguments) {
      case .version:
        Output.line("badgectl \(BadgedVersion.current)")
      case .completion(let shell):
        Output.write(CompletionScript.script(for: shell))
      case .run(let command, let socket):
        try command.run(socket: socket ?? XDGPaths.defaultSocket)
      }
      return CtlError.ExitStatus.success
    } catch {
      // The one place an error becomes its text and exit status (`CtlError`).
      Output.error(error.message)
      return error.exitStatus
    }
  }

  /// What `arguments` (without the program name) ask for, every value checked.
  ///
  /// - Throws: `CtlError.usage` for anything wrong in the line.
  static func invocation(_ arguments: [String]) throws(CtlError) -> Invocation {
    do throws(UsageError) {
      return try ArgumentScanner.parse(arguments)
    } catch {
      throw .usage(error)
    }
  }
}
