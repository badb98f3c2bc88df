import BadgeCore
import BadgeLog
import BadgeSystem
import BadgeTray

/// Whether the tray animates: `reduce_motion = yes` never, `no` always, and `auto` as the
/// desktop says through the settings portal (`org.freedesktop.portal.Settings`,
/// `org.gnome.desktop.interface enable-animations`, which GNOME's and the GTK portals serve),
/// following its changes; without a portal, motion stays on.
final class ReducedMotion {
  static let portal = "org.freedesktop.portal.Desktop"
  static let path = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.Settings"
  static let namespace = "org.gnome.desktop.interface"
  static let key = "enable-animations"

  private let setting: TrayConfig.ReduceMotion
  private(set) var isReduced: Bool
  private var slots: [BusSlot] = []

  init(setting: TrayConfig.ReduceMotion) {
    self.setting = setting
    isReduced = setting == .yes
  }

  /// With `auto`, asks the portal once and follows its `SettingChanged`; `changed` gets each
  /// new answer that differs.
  func start(bus: BusConnection, logger: Logger, changed: @escaping (Bool) -> Void) throws(SystemError) {
    guard setting == .auto else { return }
    let apply: (BusValue?) -> Void = { [weak self] value in
      guard let self, case .boolean(let animations)? = value else { return }
      let reduced = !animations
      guard reduced != isReduced else { return }
      isReduced = reduced
      logger.info(reduced ? "The desktop asks for reduced motion." : "The desktop allows motion.")
      changed(reduced)
    }
    let rule =
      "type='signal',interface='\(Self.interface)',member='SettingChanged',path='\(Self.path)',"
      + "arg0='\(Self.namespace)',arg1='\(Self.key)'"
    slots.append(
      try bus.addMatch(rule) { message in
        let arguments = message.arguments()
        apply(arguments.count == 3 ? arguments[2] : nil)
      })
    if let slot = try bus.callMethod(
      destination: Self.portal, path: Self.path, interface: Self.interface, member: "Read",
      { (builder: inout BusMessageBuilder) throws(SystemError) in
        try builder.append(string: Self.namespace)
        try builder.append(string: Self.key)
      },
      reply: { message in
        // Read answers a variant holding a variant; the reader unwraps both.
        guard message.kind == .methodReturn else { return }
        apply(message.arguments().first)
      })
    {
      slots.append(slot)
    }
  }
}
