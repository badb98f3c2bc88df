import TestSupport
import Testing

@testable import BadgeCore

/// The table of saved request ids: what it answers, its bound, and taking an id back.
@Suite struct RequestIDTableTests {
  static func id(_ token: String, request: UInt64 = 1) -> RequestID {
    guard let id = RequestID(token: token, fingerprint: request) else { fatalError("'\(token)' is not a valid token") }
    return id
  }

  @Test func aSavedIdIsARepeatWithItsRequestAndReusedWithAnother() {
    var table = RequestIDTable(capacity: 4)
    #expect(table.lookup(Self.id("a")) == .unknown)
    table.insert(Self.id("a"))
    #expect(table.lookup(Self.id("a")) == .repeated)
    #expect(table.lookup(Self.id("a", request: 2)) == .reused)
    #expect(table.lookup(Self.id("b")) == .unknown)
    #expect(table.count == 1)
  }

  @Test func pastItsCapacityTheOldestIsForgottenFirst() {
    var table = RequestIDTable(capacity: 3)
    #expect(table.insert(Self.id("a")) == nil)
    #expect(table.insert(Self.id("b")) == nil)
    #expect(table.insert(Self.id("c")) == nil)
    #expect(table.insert(Self.id("d")) == Self.id("a"))
    #expect(table.insert(Self.id("e")) == Self.id("b"))
    #expect(table.count == 3)
    #expect(table.inOrder == ["c", "d", "e"].map { Self.id($0) })
    #expect(table.lookup(Self.id("a")) == .unknown && table.lookup(Self.id("b")) == .unknown)
    #expect(table.lookup(Self.id("c")) == .repeated)
  }

  @Test func removingTheNewestPutsBackWhatItForgot() {
    var table = RequestIDTable(capacity: 2)
    table.insert(Self.id("a"))
    table.insert(Self.id("b"))
    let forgotten = table.insert(Self.id("c"))
    #expect(forgotten == Self.id("a"))
    table.removeNewest(restoring: forgotten)
    #expect(table.inOrder == [Self.id("a"), Self.id("b")])
    #expect(table.lookup(Self.id("a")) == .repeated && table.lookup(Self.id("c")) == .unknown)
    table.removeNewest(restoring: nil)
    #expect(table.inOrder == [Self.id("a")])
  }

  /// Random saves and take-backs against a plain list of the same ids: every look-up agrees,
  /// through many rounds of the ring and growths of the index.
  @Test(arguments: [1, 2, 7, 64, 1000])
  func agreesWithAListOfTheLastIds(capacity: Int) {
    var random = SplitMix(seed: UInt64(capacity))
    var table = RequestIDTable(capacity: capacity)
    var model: [RequestID] = []
    var saved: [(RequestID, RequestID?)] = []
    var next = 0
    for _ in 0..<20_000 {
      if !saved.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
        let (id, forgotten) = saved.removeLast()
        table.removeNewest(restoring: forgotten)
        #expect(model.removeLast() == id)
        if let forgotten { model.insert(forgotten, at: 0) }
      } else {
        let id = Self.id("t\(next)", request: UInt64(next % 3))
        next += 1
        let forgotten = table.insert(id)
        model.append(id)
        let expected = model.count > capacity ? model.removeFirst() : nil
        #expect(forgotten == expected)
        saved.append((id, forgotten))
      }
      let probe = Self.id(
        "t\(Int.random(in: 0...max(0, next), using: &random))", request: UInt64(Int.random(in: 0..<3, using: &random)))
      let known = model.first { $0.sameToken(as: probe) }
      #expect(table.lookup(probe) == (known == nil ? .unknown : known == probe ? .repeated : .reused))
    }
    #expect(table.inOrder == model)
    #expect(table.count <= capacity)
  }

  @Test func tokensFollowTheRule() {
    for good in ["a", "laptop:4711", "A.b_c-d:9", String(repeating: "x", count: 64)] {
      #expect(RequestID.isValidToken(good), "\(good)")
    }
    for bad in ["", " ", "a b", "a=b", "é", "a\n", String(repeating: "x", count: 65), "a*"] {
      #expect(!RequestID.isValidToken(bad), "\(bad.debugDescription)")
    }
  }

  /// The token's hash is FNV-1a 128's (records keep it, so it must never change): the
  /// published check values of the empty input and of "a".
  @Test func theTokensHashIsFNV1a128() {
    let empty = [UInt8]().withUnsafeBytes { RequestID.tokenHash($0) }
    #expect(empty == 0x6C62_272E_07BB_0142_62B8_2175_6295_C58D)
    let a = Array("a".utf8).withUnsafeBytes { RequestID.tokenHash($0) }
    #expect(a == 0xD228_CB69_6F1A_8CAF_7891_2B70_4E4A_8964)
    var fingerprint = Fingerprint()
    Array("a".utf8).withUnsafeBytes { fingerprint.add($0) }
    #expect(fingerprint.value == 0xAF63_DC4C_8601_EC8C)
  }
}
