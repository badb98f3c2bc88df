import BadgeBridge
import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeServer
import BadgeSystem

/// The LauncherEntry bridge: apps' `com.canonical.Unity.LauncherEntry.Update` signals become
/// `app:<desktop id>` channels, and channels with `export = <desktop id>` are announced to
/// docks the same way.
///
/// Changes go through the server's core (`apply`, `pulse`), the path requests take, so they
/// are persisted and pushed to watchers like any `SET`, and counted on the day of the turn
/// that carries the signal. It is the core's observer: it announces exported channels' events.
final class LauncherEntryBridge: EventObserver {
  private let core: DaemonCore
  private let logger: Logger
  private var bus: BusConnection?
  private var slots: [BusSlot] = []
  private var table = LauncherEntryTable()
  /// What each exported channel announced last and for which desktop id, so a push that
  /// changes nothing a dock shows (a label setting) sends nothing, and a new export announces.
  private var announced: [ChannelName: (id: String, state: LauncherEntryExport.State)] = [:]

  static let updateRule =
    "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"
  static let ownerRule =
    "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"

  init(core: DaemonCore, logger: Logger) {
    self.core = core
    self.logger = logger
  }

  private var config: BridgeConfig { core.config.bridge }

  // MARK: - Connection

  /// Sets up a new bus connection: listen for updates and for apps leaving, offer to stand in
  /// for a dock, and announce every exported channel.
  func connected(_ bus: BusConnection) throws(SystemError) {
    self.bus = bus
    slots.append(try bus.addMatch(Self.updateRule) { [unowned self] in received($0) })
    slots.append(try bus.addMatch(Self.ownerRule) { [unowned self] in ownerChanged($0) })
    // Apps built on libunity (and Qt's) only send while someone owns the dock's name. Ask for
    // it, but only from no one: queued while a dock has it, and handed over to a dock that
    // asks later.
    slots.append(try bus.requestName(LauncherEntryExport.dockName, flags: [.allowReplacement, .queue]))
    announced.removeAll()
    announceAll()
  }

  /// The connection is gone, and every app with it.
  func disconnected() {
    slots.removeAll()
    bus = nil
    appsLeft(table.allSendersLeft())
  }

  // MARK: - LauncherEntry in

  /// Updates from apps past `[bridge] max_apps`: a line and a count per interval, however many.
  static let appsPastLimit = RepeatedWarnings.Reason("the LauncherEntry bridge: apps past [bridge] max_apps")
  /// Announcements the bus connection refused: a line and a count per interval, not one per change.
  static let exportFailed = RepeatedWarnings.Reason("the LauncherEntry export: signals not sent")

  private func received(_ message: BusMessage) {
    let sender = message.sender ?? ""
    guard sender != bus?.uniqueName else { return }  // our own export
    let update: LauncherEntryUpdate
    do throws(LauncherEntryUpdate.Unread) {
      update = try LauncherEntryUpdate(signature: message.signature, arguments: message.arguments)
    } catch {
      logger.debug("Ignored a LauncherEntry Update from \(sender) \(error).")
      return
    }
    let channel = update.channel
    if config.ignores(channel) {
      logger.debug("Ignored a LauncherEntry Update for '\(channel)' ([bridge] ignore).", [.channel(channel)])
      return
    }
    guard let effect = table.update(update, from: sender, limit: config.maxApps) else {
      core.warn(
        Self.appsPastLimit,
        "Ignored a LauncherEntry Update from \(sender) for '\(channel)': \(table.appCount) apps are tracked already ([bridge] max_apps).",
        [.channel(channel)])
      return
    }
    if !effect.skipped.isEmpty {
      logger.debug(
        "LauncherEntry Update for '\(channel)': ignored \(effect.skipped.joined(separator: ", ")).", [.channel(channel)]
      )
    }
    if let count = effect.count, !set(channel, count, why: "LauncherEntry from \(sender)") {
      table.forget(channel, from: sender)  // nothing of a refused app is kept
      return
    }
    if effect.urgent { core.pulse(channel) }
  }

  private func ownerChanged(_ message: BusMessage) {
    let arguments = message.arguments()
    guard arguments.count == 3, case .string(let name) = arguments[0], case .string(let newOwner) = arguments[2]
    else { return }
    if name.hasPrefix(":"), newOwner.isEmpty {
      appsLeft(table.senderLeft(name))
    } else if name == LauncherEntryExport.dockName, !newOwner.isEmpty, newOwner != bus?.uniqueName {
      // A new dock: it knows nothing yet. (Taking the name ourselves tells no one anything.)
      announced.removeAll()
      announceAll()
    }
  }

  /// Apps that left keep their counts, unless `[bridge] clear_on_exit` says otherwise.
  private func appsLeft(_ channels: [ChannelName]) {
    guard config.clearOnExit else { return }
    for channel in channels { set(channel, 0, why: "its app left the bus") }
  }

  /// Sets the channel's count; returns whether the change was made (or was none).
  @discardableResult
  private func set(_ channel: ChannelName, _ count: Int, why: String) -> Bool {
    do throws(ChangeRefusal) {
      let outcome = try core.apply(.write(.set(count)), to: channel)
      if outcome.changed {
        logger.debug("Set '\(channel)' to \(count) (\(why)).", [.channel(channel)])
      }
      return true
    } catch {
      core.warn(
        error.warningReason("the LauncherEntry bridge"),
        "Failed to set '\(channel)' to \(count) (\(why)): \(error), ignoring.", [.channel(channel)])
      return false
    }
  }

  // MARK: - LauncherEntry out

  /// Announces a channel's new state when it is exported (the core's observer). The export
  /// is the channel's setting in force, so `CONFIGURE <ch> export=…` counts as the config's.
  func published(_ channel: Channel) {
    announce(channel)
  }

  /// Announces every exported channel (a new connection, a new dock, a reload).
  func announceAll() {
    for channel in core.store.exported { announce(channel) }
  }

  private func announce(_ channel: Channel) {
    guard let id = channel.settings.export else { return }
    guard let bus else { return }
    let state = LauncherEntryExport.State(count: channel.count, urgent: channel.pulseUntil > core.now)
    guard announced[channel.name]?.id != id || announced[channel.name]?.state != state else { return }
    do throws(SystemError) {
      try bus.emitSignal(
        path: LauncherEntryExport.objectPath(forDesktopID: id), interface: LauncherEntryExport.interface,
        member: LauncherEntryExport.member
      ) { (builder: inout BusMessageBuilder) throws(SystemError) in
        try builder.append(string: LauncherEntryExport.appURI(forDesktopID: id))
        try builder.append(properties: state.properties)
      }
      announced[channel.name] = (id, state)
    } catch {
      core.warn(Self.exportFailed, "\(error), ignoring.", [.channel(channel.name)])
    }
  }
}
