import BadgeBridge
import BadgeCore
import BadgeSystem

/// `badgectl open <channel>`: starts or raises the app behind an `app:` or `notify:` channel,
/// then clears the channel up to the total that was shown.
///
/// A D-Bus activatable app is asked to `Activate` on the session bus (which starts it when it
/// is not running); otherwise its desktop file is launched with `gio launch` (or `gtk-launch`).
/// The channel is cleared only when one of them worked, so a failed click leaves the count; and
/// only up to `--upto` (what `watch --open` showed), or else the total read before the app is
/// opened, so what arrives while the app starts stays.
struct OpenCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "open", abstract: "Open the app of an app: or notify: channel; clear it.",
    discussion: """
      Asks the app to come forward with org.freedesktop.Application.Activate on the session
      bus where it is D-Bus activatable (which starts it if needed), else launches its desktop
      file (<id>.desktop under $XDG_DATA_HOME and $XDG_DATA_DIRS) with gio launch or
      gtk-launch. Then clears the channel and prints its state: up to the running total given
      with --upto (watch --open gives the total it showed), else up to the total read just
      before the app is opened, so items that arrive while it starts stay. When the app cannot
      be opened, the count stays and the exit status is 1.
      """,
    usage: "<channel> [--upto <total>]", arguments: [CommandSpec.channelArgument],
    options: [CommandSpec.upToOption, CommandSpec.formatOption], positionals: 1...1)

  /// How long the app may take to answer `Activate` (a start through the bus included).
  static let activationTimeout: UInt64 = 10_000_000

  let channel: ChannelName
  /// The app's desktop id, from the channel's name.
  let desktopID: String
  let format: SnapshotFormat
  /// The running total to clear up to; `nil` until `run` reads it from the daemon.
  private(set) var upTo: Int?

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    guard let id = AppChannel.desktopID(of: channel) else {
      throw arguments.usageError("Only app: and notify: channels have an app to open, not '\(channel)'")
    }
    desktopID = id
    upTo = try arguments.value(CommandSpec.upToOption)
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  func run(socket: String) throws(CtlError) {
    // A daemon that cannot be reached does not stop the app from opening; the clear after it
    // says so (exit 69), as before.
    var clearing = self
    if upTo == nil { clearing.upTo = (try? totalShown(socket: socket)) ?? nil }
    try Self.open(desktopID: desktopID, channel: channel.description)
    try clearing.send(socket: socket)
  }

  /// The channel's running total now, before the app opens: what a click on it saw. `nil` from
  /// a daemon that sends no total (the clear is then whole).
  private func totalShown(socket: String) throws(CtlError) -> Int? {
    var total: Int?
    try DaemonConnection(socket: socket).request("GET \(channel)") { line in
      if case .state(let snapshot) = line { total = snapshot.total }
    }
    return total
  }

  var request: [String] { ["CLEAR", channel.description] + CommandSpec.upToWords(upTo) }

  /// Activates or launches the app; throws `cannotOpen` with every way that failed.
  static func open(desktopID id: String, channel: String) throws(CtlError) {
    var failures: [String] = []
    func failed(_ why: String) -> CtlError {
      failures.append(why)
      return .cannotOpen(channel: channel, reason: failures.joined(separator: "; "))
    }
    if AppActivation.isBusName(id) {
      do throws(BusCallError) {
        try activate(id)
        return
      } catch {
        _ = failed("Activate on the session bus: \(error)")
      }
    }
    let candidates = AppActivation.desktopFileCandidates(
      id: id, dataHome: Environment.value("XDG_DATA_HOME"), dataDirs: Environment.value("XDG_DATA_DIRS"),
      home: Environment.home)
    guard let file = candidates.first(where: FileSystem.exists) else {
      let folders = candidates.map { String($0.dropLast("/\(id).desktop".count)) }
      throw failed("no desktop file \(id).desktop in \(folders.joined(separator: ", "))")
    }
    let launcher: [String]
    if ChildProcess.isInstalled("gio") {
      launcher = ["gio", "launch", file]
    } else if ChildProcess.isInstalled("gtk-launch") {
      launcher = ["gtk-launch", id]
    } else {
      throw failed("found \(file), but neither gio nor gtk-launch is installed to launch it")
    }
    let status: CInt
    do throws(SystemError) {
      status = try ChildProcess.run(launcher)
    } catch {
      throw failed("\(error)")
    }
    guard status == 0 else { throw failed("'\(launcher.joined(separator: " "))' exited with status \(status)") }
  }

  /// `org.freedesktop.Application.Activate({})` on the bus name `id`.
  private static func activate(_ id: String) throws(BusCallError) {
    let bus: BusConnection
    do throws(SystemError) {
      bus = try BusConnection.session(loop: nil, description: "badgectl")
    } catch {
      throw BusCallError(name: "", message: error.description)
    }
    try bus.callMethodAndWait(
      destination: id, path: AppActivation.objectPath(forDesktopID: id), interface: AppActivation.interface,
      member: "Activate", timeout: activationTimeout
    ) { (builder: inout BusMessageBuilder) throws(SystemError) in
      try builder.append(properties: [])
    }
  }
}
