import BadgeCore
import BadgeSystem
import Foundation
import Glibc
import Testing

/// An object served on a private session bus, as a tray item serves its StatusNotifierItem and
/// menu: read by gdbus and python3-dbus, which implement D-Bus on their own.
@Suite struct BusExportTests {
  static let interface = "io.github.badged.Test1"
  static let name = "io.github.badged.Test"
  static let pixmapBytes: [UInt8] = [0, 255, 128, 1, 255, 0, 0, 127]
  static let pixmap = BusArgument.array(
    element: "(iiay)", [.structure([.int32(2), .int32(1), .bytes(Self.pixmapBytes)])])

  /// The calls the object's methods were called with, in order.
  final class Calls {
    var made: [(member: String, arguments: [BusValue])] = []
  }

  /// A menu's layout as `GetLayout` answers it: `u(ia{sv}av)`.
  static let layout: [BusArgument] = [
    .uint32(7),
    .structure([
      .int32(0), .array(element: "{sv}", [.dictEntry(.string("children-display"), .variant(.string("submenu")))]),
      .array(
        element: "v",
        [
          .variant(
            .structure([
              .int32(1), .array(element: "{sv}", [.dictEntry(.string("label"), .variant(.string("mail   3")))]),
              .array(element: "v", []),
            ]))
        ]),
    ]),
  ]

  /// The test object: properties of each shape a tray item has, and methods with the
  /// signatures hosts call a tray item and its menu with.
  static func object(_ calls: Calls) -> BusObject {
    func method(_ name: String, _ signature: String, _ out: String = "", _ reply: [BusArgument] = [])
      -> BusObject.Interface.Method
    {
      (
        name: name, inSignature: signature, outSignature: out,
        handler: { call in
          calls.made.append((call.member, call.arguments))
          return .reply(reply)
        }
      )
    }
    return BusObject(interfaces: [
      BusObject.Interface(
        name: Self.interface,
        properties: [
          (name: "Title", signature: "s", value: { .string("badged") }),
          (name: "Count", signature: "i", value: { .int32(3) }),
          (name: "Pixmap", signature: "a(iiay)", value: { Self.pixmap }),
          (name: "Empty", signature: "a(iiay)", value: { .array(element: "(iiay)", []) }),
        ],
        methods: [
          method("Event", "isvu"), method("GetLayout", "iias", "u(ia{sv}av)", Self.layout),
          method("GetGroupProperties", "aias"), method("EventGroup", "a(isvu)", "ai", [.array(element: "i", [])]),
          method("AboutToShowGroup", "ai"), method("Activate", "ii"), method("Scroll", "is"),
          (
            name: "Fail", inSignature: "", outSignature: "",
            handler: { _ in .error(name: "io.github.badged.Error.Test", message: "no") }
          ),
        ],
        signals: [(name: "NewIcon", signature: ""), (name: "NewPixmap", signature: "a(iiay)")])
    ])
  }

  /// A loop serving the test object at `/test` under `Self.name` on a private bus.
  struct Served {
    let bus: PrivateBus
    let loop: EventLoop
    let connection: BusConnection
    let slots: [BusSlot]
    let calls = Calls()
  }

  static func withServed(_ body: (Served) throws -> Void) throws {
    try TemporaryFolder.with { folder in
      let bus = try PrivateBus(in: folder)
      let loop = try EventLoop()
      let connection = try bus.connect(loop, "served")
      var owner: Bool?
      let calls = Calls()
      let exported = try connection.export(Self.object(calls), at: "/test")
      let name = try connection.requestName(Self.name, flags: []) { owner = $0 }
      try loop.turn { owner != nil }
      #expect(owner == true)
      try body(Served(bus: bus, loop: loop, connection: connection, slots: [exported, name]))
    }
  }

  @Test func getAllAnswersEveryPropertyInOrder() throws {
    try Self.withServed { served in
      let text = try served.loop.output(of: [
        "gdbus", "call", "--address", served.bus.address, "--dest", Self.name, "--object-path", "/test",
        "--method", "org.freedesktop.DBus.Properties.GetAll", Self.interface,
      ])
      #expect(
        text
          == "({'Title': <'badged'>, 'Count': <3>, 'Pixmap': <[(2, 1, [byte 0x00, 0xff, 0x80, 0x01, 0xff, 0x00, 0x00, 0x7f])]>, 'Empty': <@a(iiay) []>},)\n"
      )
    }
  }
}
