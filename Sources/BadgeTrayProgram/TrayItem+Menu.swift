import BadgeCore
import BadgeSystem
import BadgeTray

/// The item's menu, `com.canonical.dbusmenu` at `/MenuBar`: the group's channels with their
/// counts, "Clear all" and the do-not-disturb toggle (`TrayMenu` makes the entries and keeps
/// what each id acts on). Every layout served is a new revision with fresh ids, so a click acts
/// on exactly the counts the menu it came from listed: an item that arrived since stays.
extension TrayItem {
  func menuObject() -> BusObject {
    let menu = BusObject.Interface(
      name: Self.menuInterface,
      properties: [
        ("Version", "u", { .uint32(3) }),
        ("TextDirection", "s", { .string("ltr") }),
        ("Status", "s", { .string("normal") }),
        ("IconThemePath", "as", { .array(element: "s", []) }),
      ],
      methods: [
        ("GetLayout", "iias", "u(ia{sv}av)", { [unowned self] call in getLayout(call.arguments) }),
        ("GetGroupProperties", "aias", "a(ia{sv})", { [unowned self] call in groupProperties(call.arguments) }),
        ("GetProperty", "is", "v", { [unowned self] call in property(call.arguments) }),
        ("Event", "isvu", "", { [unowned self] call in event(call.arguments) }),
        ("EventGroup", "a(isvu)", "ai", { [unowned self] call in eventGroup(call.arguments) }),
        ("AboutToShow", "i", "b", { _ in .reply([.boolean(false)]) }),
        ("AboutToShowGroup", "ai", "aiai", { _ in .reply([.array(element: "i", []), .array(element: "i", [])]) }),
      ],
      signals: [
        ("ItemsPropertiesUpdated", "a(ia{sv})a(ias)"), ("LayoutUpdated", "ui"), ("ItemActivationRequested", "iu"),
      ]
    )
    return BusObject(interfaces: [menu])
  }

  // MARK: - Layout

  private func getLayout(_ arguments: [BusValue]) -> BusMethodResult {
    guard case .signed(let parent)? = arguments.first else { return invalid("GetLayout needs a parent id") }
    let entries = menu.layout(for: group, dnd: dnd)
    let layout: BusArgument
    if parent == 0 {
      layout = node(id: 0, properties: [("children-display", .string("submenu"))], children: entries.map(entryNode))
    } else if let entry = entries.first(where: { $0.id == parent }) {
      layout = entryNode(entry)
    } else {
      return invalid("No menu entry \(parent)")
    }
    return .reply([.uint32(menu.revision), layout])
  }

  private func node(id: Int32, properties: [(String, BusArgument)], children: [BusArgument]) -> BusArgument {
    .structure([
      .int32(id),
      .array(element: "{sv}", properties.map { .dictEntry(.string($0.0), .variant($0.1)) }),
      .array(element: "v", children.map { .variant($0) }),
    ])
  }

  private func entryNode(_ entry: TrayMenu.Entry) -> BusArgument {
    node(id: entry.id, properties: Self.properties(of: entry), children: [])
  }

  /// An entry's dbusmenu properties (defaults left out, as the specification allows).
  static func properties(of entry: TrayMenu.Entry) -> [(String, BusArgument)] {
    switch entry.kind {
    case .separator:
      return [("type", .string("separator"))]
    case .standard:
      return [("label", .string(entry.label)), ("enabled", .boolean(entry.enabled))]
    case .toggle(let on):
      return [
        ("label", .string(entry.label)), ("enabled", .boolean(entry.enabled)),
        ("toggle-type", .string("checkmark")), ("toggle-state", .int32(on ? 1 : 0)),
      ]
    }
  }

  private func groupProperties(_ arguments: [BusValue]) -> BusMethodResult {
    guard case .array(let ids)? = arguments.first else { return invalid("GetGroupProperties needs ids") }
    let wanted: [Int32] = ids.compactMap { if case .signed(let id) = $0 { Int32(exactly: id) } else { nil } }
    // No ids asks for every entry of the latest layout.
    let entries = wanted.isEmpty ? menu.latestEntries : wanted.compactMap(menu.entry(for:))
    return .reply([
      .array(
        element: "(ia{sv})",
        entries.map { entry in
          .structure([
            .int32(entry.id),
            .array(element: "{sv}", Self.properties(of: entry).map { .dictEntry(.string($0.0), .variant($0.1)) }),
          ])
        })
    ])
  }

  private func property(_ arguments: [BusValue]) -> BusMethodResult {
    guard arguments.count == 2, case .signed(let id) = arguments[0], case .string(let name) = arguments[1],
      let entry = Int32(exactly: id).flatMap(menu.entry(for:)),
      let value = Self.properties(of: entry).first(where: { $0.0 == name })?.1
    else { return invalid("No such menu entry or property") }
    return .reply([.variant(value)])
  }

  // MARK: - Clicks

  private func event(_ arguments: [BusValue]) -> BusMethodResult {
    guard arguments.count == 4, case .signed(let id) = arguments[0], case .string(let kind) = arguments[1] else {
      return invalid("Event needs (id, event id, data, timestamp)")
    }
    if kind == "clicked", let id = Int32(exactly: id) { clicked(id) }
    return .reply([])
  }

  private func eventGroup(_ arguments: [BusValue]) -> BusMethodResult {
    guard case .array(let events)? = arguments.first else { return invalid("EventGroup needs events") }
    var unknown: [BusArgument] = []
    for case .array(let fields) in events {
      guard fields.count == 4, case .signed(let id) = fields[0], case .string(let kind) = fields[1],
        let id32 = Int32(exactly: id)
      else { continue }
      if menu.action(for: id32) == nil && menu.entry(for: id32) == nil { unknown.append(.int32(id32)) }
      if kind == "clicked" { clicked(id32) }
    }
    return .reply([.array(element: "i", unknown)])
  }

  /// Does what the clicked entry of its revision says.
  private func clicked(_ id: Int32) {
    menu.action(for: id).map { actions?.perform($0) }
  }

  private func invalid(_ message: String) -> BusMethodResult {
    .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
  }
}
