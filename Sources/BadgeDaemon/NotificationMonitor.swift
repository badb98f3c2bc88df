import BadgeBridge
import BadgeCore
import BadgeLog
import BadgeServer
import BadgeSystem

/// `[notifications] count = yes`: a second bus connection that becomes a monitor
/// (`org.freedesktop.DBus.Monitoring.BecomeMonitor`) and counts `Notify` calls per app into
/// `notify:<app>` channels, beside whatever notification daemon runs (mako, dunst, swaync).
///
/// A monitor only receives: it sees the four kinds of message its rules select and can send
/// nothing, so it never disturbs the notification daemon.
final class NotificationMonitor {
  private let core: DaemonCore
  private let logger: Logger
  private var slots: [BusSlot] = []
  private var counter = NotificationCounter()

  static let interface = "org.freedesktop.Notifications"
  /// What the monitor asks to see: the calls, the daemon's answers (for the ids), the signals
  /// that say a notification was dismissed or acted on, and the name changing hands. The
  /// answers and the signals only from the name's owner: the bus checks `sender=` against
  /// the owner when it routes each message, so it follows a new owner by itself, and no other
  /// connection can take a notification off by sending a signal that looks like the
  /// daemon's.
  static let rules = [
    "type='method_call',interface='\(interface)',member='Notify'",
    "type='method_return',sender='\(interface)'",
    "type='signal',sender='\(interface)',interface='\(interface)',member='NotificationClosed'",
    "type='signal',sender='\(interface)',interface='\(interface)',member='ActionInvoked'",
    "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(interface)'",
  ]

  init(core: DaemonCore, logger: Logger) {
    self.core = core
    self.logger = logger
  }

  /// Turns a new connection into a monitor.
  func connected(_ bus: BusConnection) throws(SystemError) {
    // The calls the monitor sees go no further: sd-bus would answer them, and a monitor that
    // sends anything is disconnected.
    slots.append(
      try bus.addFilter { [unowned self] message in
        seen(message)
        return message.kind == .methodCall
      })
    let call = try bus.callMethod(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus.Monitoring", member: "BecomeMonitor",
      { (builder: inout BusMessageBuilder) throws(SystemError) in
        try builder.append(strings: Self.rules)
        try builder.append(uint32: 0)
      },
      reply: { [unowned self] reply in
        if let error = reply.errorName {
          logger.warning("The session bus refused to let badged count notifications (\(error)), ignoring.")
        } else {
          logger.debug("Counting notifications as a monitor of the session bus.")
        }
      })
    if let call { slots.append(call) }
  }

  func disconnected() {
    slots.removeAll()
    counter.reset()
  }

  private func seen(_ message: BusMessage) {
    switch message.kind {
    case .methodCall where message.member == "Notify":
      guard let caller = message.sender, let serial = message.serial else { return }
      if let channel = counter.notify(caller: caller, serial: serial, arguments: message.arguments()) {
        change(.write(.incr(1)), channel, why: "a notification from \(caller)")
      }
    case .methodReturn:
      guard let server = message.sender, let caller = message.destination, let serial = message.replySerial else {
        return
      }
      counter.answered(server: server, caller: caller, replySerial: serial, arguments: message.arguments())
    case .signal where message.interface == "org.freedesktop.DBus" && message.member == "NameOwnerChanged":
      logger.debug("The notification daemon's name changed hands: forgot the notifications shown before.")
      counter.reset()
    case .signal where message.interface == Self.interface:
      guard let sender = message.sender else { return }
      let arguments = message.arguments()
      let acted = message.member == "ActionInvoked"
      let done =
        acted
        ? counter.actionInvoked(sender: sender, arguments: arguments)
        : counter.closed(sender: sender, arguments: arguments)
      if let done { change(.write(.decr(1)), done, why: "a notification was \(acted ? "acted on" : "dismissed")") }
    default:
      return
    }
  }

  private func change(_ mutation: Store.Mutation, _ channel: ChannelName, why: String) {
    do throws(ChangeRefusal) {
      let outcome = try core.apply(mutation, to: channel)
      logger.debug("'\(channel)' is now \(outcome.channel.count) (\(why)).", [.channel(channel)])
    } catch {
      core.warn(
        error.warningReason("counting notifications"), "Failed to count '\(channel)' (\(why)): \(error), ignoring.",
        [.channel(channel)])
    }
  }
}
