import BadgeBus
import BadgeCtl
import BadgeSystem

/// `badgectl open`'s way to the app: asked to `Activate` on the session bus where it is D-Bus
/// activatable, else its desktop file launched with `gio launch` (or `gtk-launch`).
enum AppOpener {
  /// How long the app may take to answer `Activate` (a start through the bus included).
  static let activationTimeout: UInt64 = 10_000_000

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
