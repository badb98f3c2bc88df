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

  /// A reply larger than a socket's buffer: sd-bus sends it in parts as the socket has room.
  static let large = (0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 7) }

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
          method("Mistyped", "", "s", [.int32(1)]),
          (name: "Large", inSignature: "", outSignature: "ay", handler: { _ in .reply([.bytes(Self.large)]) }),
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
    let calls: Calls
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
      try body(Served(bus: bus, loop: loop, connection: connection, slots: [exported, name], calls: calls))
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

  @Test func getOfAPixmapGivesItsExactBytesAndAnEmptyOneItsType() throws {
    try Self.withServed { served in
      let text = try served.bus.python(
        """
        call("org.freedesktop.DBus.Properties", "Get", "ss", "\(Self.interface)", "Pixmap")
        call("org.freedesktop.DBus.Properties", "Get", "ss", "\(Self.interface)", "Title")
        """, on: served.loop)
      #expect(text == "[[2, 1, [0, 255, 128, 1, 255, 0, 0, 127]]]\n\"badged\"\n")
      let empty = try served.loop.output(of: [
        "gdbus", "call", "--address", served.bus.address, "--dest", Self.name, "--object-path", "/test",
        "--method", "org.freedesktop.DBus.Properties.Get", Self.interface, "Empty",
      ])
      #expect(empty == "(<@a(iiay) []>,)\n")
    }
  }

  @Test func introspectionListsInterfacesMethodsSignalsAndProperties() throws {
    try Self.withServed { served in
      let xml = try served.bus.python(
        """
        print(bus.call_blocking("\(Self.name)", "/test", "org.freedesktop.DBus.Introspectable", "Introspect", "", ()))
        """, on: served.loop)
      for line in [
        "<node>", " <interface name=\"org.freedesktop.DBus.Properties\">", "  <method name=\"GetAll\">",
        " <interface name=\"\(Self.interface)\">", "  <method name=\"GetLayout\">",
        "   <arg type=\"iias\" direction=\"in\"/>", "   <arg type=\"i\" direction=\"in\"/>",
        "   <arg type=\"as\" direction=\"in\"/>", "   <arg type=\"(ia{sv}av)\" direction=\"out\"/>",
        "   <arg type=\"a(isvu)\" direction=\"in\"/>", "  <signal name=\"NewPixmap\">",
        "   <arg type=\"a(iiay)\"/>", "  <property name=\"Pixmap\" type=\"a(iiay)\" access=\"read\"/>",
      ] {
        #expect(xml.contains(line + "\n") == !line.contains("iias"), "\(line)")
      }
      // gdbus parses the XML and lists what it found.
      let parsed = try served.loop.output(of: [
        "gdbus", "introspect", "--address", served.bus.address, "--dest", Self.name, "--object-path", "/test",
      ])
      #expect(parsed.contains("GetLayout(in  i arg_0,"), "\(parsed)")
      #expect(
        parsed.contains("readonly a(iiay) Pixmap = [(2, 1, [0x00, 0xff, 0x80, 0x01, 0xff, 0x00, 0x00, 0x7f])];"),
        "\(parsed)")
    }
  }

  @Test func methodsGetTheArgumentsHostsCallATrayWith() throws {
    try Self.withServed { served in
      let text = try served.bus.python(
        """
        I = "\(Self.interface)"
        call(I, "Event", "isvu", 7, "clicked", dbus.Int32(5), 1234)
        call(I, "GetLayout", "iias", 0, -1, ["label", "children-display"])
        call(I, "GetGroupProperties", "aias", [1, 2], ["label"])
        call(I, "EventGroup", "a(isvu)", [(1, "clicked", "x", 9), (2, "hovered", dbus.Int32(0), 10)])
        call(I, "AboutToShowGroup", "ai", [])
        call(I, "Activate", "ii", 10, 20)
        call(I, "Scroll", "is", -3, "vertical")
        """, on: served.loop)
      #expect(
        text.split(separator: "\n") == [
          "null", #"[7, [0, {"children-display": "submenu"}, [[1, {"label": "mail   3"}, []]]]]"#, "null", "[]",
          "null", "null", "null",
        ])
      #expect(
        served.calls.made.map(\.member) == [
          "Event", "GetLayout", "GetGroupProperties", "EventGroup", "AboutToShowGroup", "Activate", "Scroll",
        ])
      #expect(
        served.calls.made.map(\.arguments) == [
          [.signed(7), .string("clicked"), .signed(5), .unsigned(1234)],
          [.signed(0), .signed(-1), .array([.string("label"), .string("children-display")])],
          [.array([.signed(1), .signed(2)]), .array([.string("label")])],
          [
            .array([
              .array([.signed(1), .string("clicked"), .string("x"), .unsigned(9)]),
              .array([.signed(2), .string("hovered"), .signed(0), .unsigned(10)]),
            ])
          ],
          [.array([])],
          [.signed(10), .signed(20)],
          [.signed(-3), .string("vertical")],
        ])
    }
  }

  @Test func wrongCallsGetTheirErrorsAndReachNoHandler() throws {
    try Self.withServed { served in
      let text = try served.bus.python(
        """
        I = "\(Self.interface)"
        call(I, "Activate", "is", 10, "20")
        call(I, "Activate", "", )
        call(I, "Missing", "")
        call("io.github.badged.Other", "Activate", "ii", 1, 2)
        call("org.freedesktop.DBus.Properties", "Set", "ssv", I, "Count", dbus.Int32(4))
        call("org.freedesktop.DBus.Properties", "Set", "ssv", I, "Missing", dbus.Int32(4))
        call("org.freedesktop.DBus.Properties", "Get", "ss", I, "Missing")
        call("org.freedesktop.DBus.Properties", "GetAll", "s", "io.github.badged.Other")
        call("org.freedesktop.DBus.Properties", "Get", "s", I)
        call(I, "Fail", "")
        call(I, "Mistyped", "")
        """, on: served.loop)
      #expect(
        text.split(separator: "\n") == [
          "error org.freedesktop.DBus.Error.InvalidArgs", "error org.freedesktop.DBus.Error.InvalidArgs",
          "error org.freedesktop.DBus.Error.UnknownMethod", "error org.freedesktop.DBus.Error.UnknownMethod",
          "error org.freedesktop.DBus.Error.PropertyReadOnly", "error org.freedesktop.DBus.Error.UnknownProperty",
          "error org.freedesktop.DBus.Error.UnknownProperty", "error org.freedesktop.DBus.Error.UnknownInterface",
          "error org.freedesktop.DBus.Error.InvalidArgs", "error io.github.badged.Error.Test",
          "error org.freedesktop.DBus.Error.Failed",
        ])
      #expect(served.calls.made.map(\.member) == ["Mistyped"], "only the one with the right arguments ran")
    }
  }

  @Test func aReplyLargerThanTheSocketsBufferArrivesWhole() throws {
    try Self.withServed { served in
      let text = try served.bus.python(
        """
        value = bus.call_blocking("\(Self.name)", "/test", "\(Self.interface)", "Large", "", (), byte_arrays=True)
        print(len(value), sum(value))
        """, on: served.loop)
      #expect(text == "1048576 \(Self.large.reduce(0) { $0 + Int($1) })\n")
    }
  }

  @Test func signalsAndPropertiesChangedReachAnotherConnectionsMatch() throws {
    try Self.withServed { served in
      let listener = try served.bus.connect(served.loop, "listener")
      var received: [(member: String, arguments: [BusValue])] = []
      let match = try listener.addMatch("type='signal',sender='\(Self.name)',path='/test'") {
        received.append(($0.member ?? "", $0.arguments()))
      }
      // The bus answers GetId after it installed the match the same connection asked for first.
      var matching = false
      let call = try listener.callMethod(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
        member: "GetId", { _ in }, reply: { _ in matching = true })
      try served.loop.turn { matching }
      try served.connection.emitSignal(
        path: "/test", interface: Self.interface, member: "NewPixmap", arguments: [Self.pixmap])
      try served.connection.emitPropertiesChanged(
        path: "/test", interface: Self.interface, changed: ["Title": .string("badged: mail"), "Count": .int32(4)],
        invalidated: ["Pixmap"])
      try served.loop.turn { received.count == 2 }
      withExtendedLifetime((match, call)) {}
      #expect(received.map(\.member) == ["NewPixmap", "PropertiesChanged"])
      #expect(
        received.first?.arguments == [
          .array([.array([.signed(2), .signed(1), .array(Self.pixmapBytes.map { .unsigned(UInt64($0)) })])])
        ])
      #expect(
        received.last?.arguments == [
          .string(Self.interface),
          .dictionary([
            BusProperty(key: "Count", value: .signed(4)), BusProperty(key: "Title", value: .string("badged: mail")),
          ]),
          .array([.string("Pixmap")]),
        ])
    }
  }

  @Test func aNameOwnedByAnotherConnectionIsRefusedQueuedOrNot() throws {
    try Self.withServed { served in
      let second = try served.bus.connect(served.loop, "second")
      var outcomes: [Bool] = []
      var ownerAgain: Bool?
      let plain = try second.requestName(Self.name, flags: []) { outcomes.append($0) }
      let queued = try second.requestName(Self.name, flags: .queue) { outcomes.append($0) }
      let again = try served.connection.requestName(Self.name, flags: []) { ownerAgain = $0 }
      try served.loop.turn { outcomes.count == 2 && ownerAgain != nil }
      withExtendedLifetime((plain, queued, again)) {}
      #expect(outcomes == [false, false])
      #expect(ownerAgain == true, "the owner asking again is still its owner")
    }
  }

  @Test func twoObjectsServeOnOneConnectionUntilTheirSlotsAreDropped() throws {
    try Self.withServed { served in
      let menu = BusObject(interfaces: [
        BusObject.Interface(
          name: "com.canonical.dbusmenu", properties: [(name: "Version", signature: "u", value: { .uint32(3) })])
      ])
      let slot = try served.connection.export(menu, at: "/MenuBar")
      let version = """
        call("org.freedesktop.DBus.Properties", "Get", "ss", "com.canonical.dbusmenu", "Version", path="/MenuBar")
        """
      let both = try served.bus.python(
        version + "\ncall(\"org.freedesktop.DBus.Properties\", \"Get\", \"ss\", \"\(Self.interface)\", \"Title\")",
        on: served.loop)
      #expect(both == "3\n\"badged\"\n")
      slot.cancel()
      #expect(try served.bus.python(version, on: served.loop) == "error org.freedesktop.DBus.Error.UnknownObject\n")
    }
  }
}
