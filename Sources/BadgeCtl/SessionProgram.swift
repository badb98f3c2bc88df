import BadgePOSIX
import Glibc

/// The work of the commands that need libsystemd or ncursesw: `watch` and `top` (an sd-event
/// loop; `top` draws with curses), `open` (the session bus, a launcher as a child) and `stats`'
/// count-up in a terminal (an sd-event loop); and `web`'s, which needs GnuTLS and libqrencode.
/// Each carries its command, read and checked.
package enum SessionWork {
  case watch(WatchCommand)
  case top(TopCommand)
  case open(OpenCommand)
  case stats(StatsCommand)
  case web(WebCommand)
}

/// Where session work is carried out: in `badgectl-session`, a program of its own.
///
/// Status bars spawn `badgectl get` (and `incr`, `list`, …) every second, so `badgectl` links
/// neither libsystemd nor ncursesw: loading them and their libraries was most of a one-shot
/// command's instructions. The commands that need them go to `badgectl-session`, which links
/// both and runs the same command line in-process (docs/ARCHITECTURE.md, "badgectl's two
/// programs"). The one `badgectl` command line stays the users'.
package enum SessionProgram {
  /// The program's name, and its folder relative to the folder of `badgectl`'s own file
  /// (`/usr/bin` → `/usr/libexec/badged`); beside it is where a build tree has it.
  package static let name = "badgectl-session"
  static let installedFolder = "../libexec/badged"

  /// How this process carries out session work: set by `badgectl-session` before it reads its
  /// command line; `nil` in `badgectl`, which then hands its command line to that program.
  nonisolated(unsafe) package static var runner: ((SessionWork, String) throws(CtlError) -> Void)?

  /// Carries `work` out against the daemon at `socket`, here or in `badgectl-session`.
  ///
  /// - Throws: what the work throws; `CtlError.missingProgram` when `badgectl-session` cannot
  ///   be started.
  static func run(_ work: SessionWork, socket: String) throws(CtlError) {
    if let runner { return try runner(work, socket) }
    try execute(command: command(of: work))
  }

  /// Replaces this process with `badgectl-session` and this process's own command line, so that
  /// it reads, checks and runs the same line (the environment goes along as it is). Even the
  /// program name stays: `ps` shows, and `pkill -f 'badgectl watch'` finds, `badgectl watch`
  /// as before. Returns only by throwing.
  private static func execute(command: String) throws(CtlError) {
    let candidates = paths(besides: Environment.executablePath)
    var arguments = CommandLine.arguments.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    var causes: [String] = []
    for path in candidates {
      execv(path, &arguments)
      causes.append("\(path): \(Errno.current)")
    }
    throw .missingProgram(command: command, program: name, causes: causes)
  }

  /// Where `badgectl-session` may be, in order, for `badgectl` at `executable`.
  static func paths(besides executable: String?) -> [String] {
    guard let executable, let slash = executable.lastIndex(of: "/") else { return [] }
    let folder = String(executable[..<slash])
    return ["\(folder)/\(installedFolder)/\(name)", "\(folder)/\(name)"]
  }

  private static func command(of work: SessionWork) -> String {
    switch work {
    case .watch: WatchCommand.spec.name
    case .top: TopCommand.spec.name
    case .open: OpenCommand.spec.name
    case .stats: StatsCommand.spec.name
    case .web: WebCommand.spec.name
    }
  }
}
