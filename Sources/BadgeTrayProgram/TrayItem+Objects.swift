import BadgeCore
import BadgeSystem
import BadgeTray
import BadgeTrayDraw

/// The item's objects on the bus: `/StatusNotifierItem` (org.kde.StatusNotifierItem, with the
/// Ayatana label GNOME shows, and badged-tray's frame interface) and `/MenuBar`
/// (com.canonical.dbusmenu, in `TrayItem+Menu.swift`). Properties are read when asked, so a
/// host always reads what the item shows now.
extension TrayItem {
  func itemObject() -> BusObject {
    let item = BusObject.Interface(
      name: Self.itemInterface,
      properties: [
        ("Category", "s", { .string("Communications") }),
        ("Id", "s", { [unowned self] in .string("badged-\(index)") }),
        ("Title", "s", { [unowned self] in .string(group.title) }),
        ("Status", "s", { [unowned self] in .string(status) }),
        ("WindowId", "i", { .int32(0) }),
        ("IconThemePath", "s", { .string("") }),
        ("IconName", "s", { .string("") }),
        ("IconPixmap", "a(iiay)", { [unowned self] in Self.pixmapArgument(pixmaps) }),
        ("OverlayIconName", "s", { .string("") }),
        ("OverlayIconPixmap", "a(iiay)", { Self.pixmapArgument([]) }),
        ("AttentionIconName", "s", { .string("") }),
        ("AttentionIconPixmap", "a(iiay)", { Self.pixmapArgument([]) }),
        ("AttentionMovieName", "s", { .string("") }),
        ("ToolTip", "(sa(iiay)ss)", { [unowned self] in toolTipArgument() }),
        ("ItemIsMenu", "b", { .boolean(false) }),
        ("Menu", "o", { .objectPath(Self.menuPath) }),
        ("XAyatanaLabel", "s", { [unowned self] in .string(label) }),
        ("XAyatanaLabelGuide", "s", { [unowned self] in .string(labelGuide) }),
        ("XAyatanaOrderingIndex", "u", { [unowned self] in .uint32(UInt32(index)) }),
        ("IconAccessibleDesc", "s", { [unowned self] in .string(group.accessibleDescription) }),
        ("AttentionAccessibleDesc", "s", { [unowned self] in .string(group.accessibleDescription) }),
      ],
      methods: [
        ("Activate", "ii", "", { [unowned self] _ in activated() }),
        ("SecondaryActivate", "ii", "", { [unowned self] _ in secondaryActivated() }),
        ("ContextMenu", "ii", "", { _ in .reply([]) }),
        ("Scroll", "is", "", { [unowned self] call in scrolled(call.arguments) }),
        ("ProvideXdgActivationToken", "s", "", { _ in .reply([]) }),
      ],
      signals: [
        ("NewTitle", ""), ("NewIcon", ""), ("NewAttentionIcon", ""), ("NewOverlayIcon", ""), ("NewToolTip", ""),
        ("NewStatus", "s"), ("XAyatanaNewLabel", "ss"),
      ])
    let frameInfo = BusObject.Interface(
      name: Self.frameInterface,
      properties: [
        ("Pattern", "s", { [unowned self] in .string(pattern.description) }),
        ("FrameElapsed", "d", { [unowned self] in .double(frame?.elapsed ?? 0) }),
        ("FrameScale", "d", { [unowned self] in .double(frame?.scale ?? 1) }),
      ],
      methods: [], signals: [])
    return BusObject(interfaces: [item, frameInfo])
  }

  static func pixmapArgument(_ pixmaps: [IconPixmap]) -> BusArgument {
    .array(
      element: "(iiay)",
      pixmaps.map { .structure([.int32($0.width), .int32($0.height), .bytes($0.argb)]) })
  }

  private func toolTipArgument() -> BusArgument {
    let tip = toolTip
    return .structure([.string(""), Self.pixmapArgument([]), .string(tip.title), .string(tip.body)])
  }

  // MARK: - Clicks

  /// What the group shows, channel by channel, as the watermarks a clear stops at.
  private var shownTotals: [TrayMenu.ShownTotal] {
    group.channels.compactMap { snapshot in
      guard snapshot.count > 0, let name = ChannelName(snapshot.channel) else { return nil }
      return TrayMenu.ShownTotal(channel: name, total: snapshot.total)
    }
  }

  /// A left click: `activate = open` opens the app of the group's largest unread app channel
  /// (and `badgectl open` clears it up to what it showed), or clears the group when none has
  /// an app; `clear` clears the group; `none` nothing.
  private func activated() -> BusMethodResult {
    switch config.activate {
    case .none: break
    case .clear: actions?.clear(shownTotals)
    case .open:
      if let app = group.largestUnreadAppChannel {
        actions?.open(app)
      } else {
        actions?.clear(shownTotals)
      }
    }
    return .reply([])
  }

  /// A middle click clears the group up to what it shows.
  private func secondaryActivated() -> BusMethodResult {
    actions?.clear(shownTotals)
    return .reply([])
  }

  /// `scroll = step`: up adds one to an item of one channel, down takes one away.
  private func scrolled(_ arguments: [BusValue]) -> BusMethodResult {
    guard config.scroll == .step, let channel = pattern.exactName,
      arguments.count == 2, case .signed(let delta) = arguments[0], case .string(let orientation) = arguments[1],
      orientation == "vertical", delta != 0
    else { return .reply([]) }
    actions?.step(channel, by: delta > 0 ? 1 : -1)
    return .reply([])
  }
}
