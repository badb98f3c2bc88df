import BadgeSystem
import Testing

/// `Environment.hostName`: the one name of this machine, which the daemon's stamps and ids and
/// the bridge's default `host` share.
@Suite struct HostNameTests {
  @Test(
    arguments: [
      ("desk", "desk"),
      ("desk.home.lan", "desk.home.lan"),
      ("ana's pc", "ana-s-pc"),
      ("a:b_c-d", "a-b_c-d"),
      ("h\u{E9}", "h--"),
      ("", "localhost"),
    ])
  func theNameIsWholeWithEveryOtherByteADash(raw: String, name: String) {
    #expect(Environment.hostName(Array(raw.utf8)) == name)
  }

  @Test func theNameIsCutAt64Bytes() {
    #expect(Environment.hostName(Array(repeating: UInt8(ascii: "a"), count: 70)) == String(repeating: "a", count: 64))
  }

  @Test func thisMachinesNameIsOneOfThem() {
    let name = Environment.hostName
    #expect((1...64).contains(name.utf8.count))
    #expect(!name.utf8.contains(UInt8(ascii: ":")))
  }
}
