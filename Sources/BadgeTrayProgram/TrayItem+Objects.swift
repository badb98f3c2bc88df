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

  /// A left click: what `[tray] activate` says (`TrayGroup.activation`).
  private func activated() -> BusMethodResult {
    group.activation(config.activate).map { actions?.perform($0) }
    return .reply([])
  }

  /// A middle click clears the group up to what it shows.
  private func secondaryActivated() -> BusMethodResult {
    group.clearAction.map { actions?.perform($0) }
    return .reply([])
  }

  /// The wheel: what `[tray] scroll` says (`TrayGroup.scrollAction`).
  private func scrolled(_ arguments: [BusValue]) -> BusMethodResult {
    if arguments.count == 2, case .signed(let delta) = arguments[0], case .string(let orientation) = arguments[1],
      let delta = Int32(exactly: delta)
    {
      group.scrollAction(delta: delta, orientation: orientation, config.scroll).map { actions?.perform($0) }
    }
    return .reply([])
  }
}
