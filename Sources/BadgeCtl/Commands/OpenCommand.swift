import BadgeBus
import BadgeCore
import BadgeProtocol

/// `badgectl open <channel>`: starts or raises the app behind an `app:` or `notify:` channel,
/// then clears the channel up to the total that was shown.
///
/// A D-Bus activatable app is asked to `Activate` on the session bus (which starts it when it
/// is not running); otherwise its desktop file is launched with `gio launch` (or `gtk-launch`).
/// The channel is cleared only when one of them worked, so a failed click leaves the count; and
/// only up to `--upto` (what `watch --open` showed), or else the total read before the app is
/// opened, so what arrives while the app starts stays. Opening the app (`AppOpener`) runs in
/// badgectl-session, which links sd-bus.
package struct OpenCommand: RequestCommand {
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

  let channel: ChannelName
  /// The app's desktop id, from the channel's name.
  package let desktopID: String
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
    try SessionProgram.run(.open(self), socket: socket)
  }

  /// Opens the app with `opening` (its desktop id and the channel's name), then clears the
  /// channel and prints its state.
  package func openAndClear(
    socket: String, opening: (_ desktopID: String, _ channel: String) throws(CtlError) -> Void
  ) throws(CtlError) {
    // A daemon that cannot be reached does not stop the app from opening; the clear after it
    // says so (exit 69), as before.
    var clearing = self
    if upTo == nil { clearing.upTo = (try? totalShown(socket: socket)) ?? nil }
    try opening(desktopID, channel.description)
    try clearing.send(socket: socket)
  }

  /// The channel's running total now, before the app opens: what a click on it saw. `nil` from
  /// a daemon that sends no total (the clear is then whole).
  private func totalShown(socket: String) throws(CtlError) -> Int? {
    var total: Int?
    try DaemonConnection(socket: socket).request(.get(channel)) { line in
      if case .state(let snapshot) = line { total = snapshot.total }
    }
    return total
  }

  var request: Request { .write(channel, .clear(upTo: upTo)) }
}
