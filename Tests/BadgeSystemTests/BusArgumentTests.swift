import BadgeSystem
import Testing

/// The signatures of arguments as messages carry them, and how a signature splits into the
/// arguments introspection lists.
@Suite struct BusArgumentTests {
  static let pixmap = BusArgument.structure([.int32(2), .int32(1), .bytes([0, 255, 128, 1, 255, 0, 0, 127])])

  @Test func basicTypesHaveTheirLetters() {
    let arguments: [BusArgument] = [
      .byte(1), .boolean(true), .int32(-1), .uint32(1), .int64(-1), .uint64(1), .double(0.5), .string("a"),
      .objectPath("/a"), .signature("s"), .bytes([]), .variant(.int32(1)),
    ]
    #expect(arguments.map(\.signature).joined() == "ybiuxtdsogayv")
  }

  @Test func nestedArgumentsMakeTheirSignatures() {
    #expect(BusArgument.array(element: "(iiay)", [Self.pixmap]).signature == "a(iiay)")
    #expect(BusArgument.array(element: "(iiay)", []).signature == "a(iiay)", "an empty array keeps its element type")
    let layout = BusArgument.structure([
      .int32(0), .array(element: "{sv}", [.dictEntry(.string("label"), .variant(.string("mail 3")))]),
      .array(element: "v", [.variant(.structure([.int32(1), .array(element: "{sv}", []), .array(element: "v", [])]))]),
    ])
    #expect(layout.signature == "(ia{sv}av)")
    #expect(BusArgument.dictEntry(.string("a"), .array(element: "(iiay)", [])).signature == "{sa(iiay)}")
    #expect(
      BusArgument.structure([.string(""), .array(element: "(iiay)", []), .string("t"), .string("")]).signature
        == "(sa(iiay)ss)")
  }

  @Test func aSignatureSplitsIntoCompleteTypes() {
    #expect(BusArgument.completeTypes(of: "isvu") == ["i", "s", "v", "u"])
    #expect(BusArgument.completeTypes(of: "u(ia{sv}av)") == ["u", "(ia{sv}av)"])
    #expect(BusArgument.completeTypes(of: "aia(isvu)a{sa(iiay)}aas") == ["ai", "a(isvu)", "a{sa(iiay)}", "aas"])
    #expect(BusArgument.completeTypes(of: "") == [])
  }
}
