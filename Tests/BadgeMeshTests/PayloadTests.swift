import BadgeCore
import BadgeMesh
import BadgeProtocol
import Testing

/// The JSON payloads, written as docs/MQTT.md shows them, and read strictly.
@Suite struct PayloadTests {
  static let state = ChannelState(
    count: 3, label: "3", unseen: 2, total: 17, seq: 42, owner: "desktop", pulseMs: 2100, claimed: 1_764_620_000_123)

  static func stateRefusal(_ text: String) -> String? {
    do {
      _ = try ChannelState(payload: bytes(text))
      return nil
    } catch {
      return error.description
    }
  }

  static func commandRefusal(_ text: String) -> String? {
    do {
      _ = try ChannelCommand(payload: bytes(text))
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aStateIsWrittenInTheDocumentedOrderAndReadBack() throws {
    let text = String(decoding: Self.state.payload, as: UTF8.self)
    #expect(
      text
        == #"{"count":3,"label":"3","dot":false,"muted":false,"unseen":2,"total":17,"seq":42,"owner":"desktop","pulse":2100,"claimed":1764620000123}"#
    )
    #expect(try ChannelState(payload: Self.state.payload) == Self.state)
  }

  @Test func aStateWithMembersOfALaterVersionIsRead() throws {
    let text =
      #"{"count":1,"label":"•","dot":true,"muted":true,"unseen":0,"seq":1,"owner":"nas","claimed":5,"colour":"red"}"#
    let state = try ChannelState(payload: bytes(text))
    #expect(
      state
        == ChannelState(
          count: 1, label: "•", dot: true, muted: true, unseen: 0, total: nil, seq: 1, owner: "nas", claimed: 5))
  }

  @Test(arguments: [
    (#"[1]"#, "not a JSON object"),
    (
      #"{"count":-1,"label":"","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":1}"#,
      "'count' is not a whole number from 0 to 2147483647"
    ),
    (
      #"{"count":2147483648,"label":"","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":1}"#,
      "'count' is not a whole number from 0 to 2147483647"
    ),
    (
      #"{"count":"3","label":"","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":1}"#,
      "'count' is not a whole number from 0 to 2147483647"
    ),
    (
      #"{"count":1,"label":"","dot":false,"muted":false,"unseen":2,"seq":1,"owner":"a","claimed":1}"#,
      "'unseen' is above 'count'"
    ),
    (
      #"{"count":1,"label":"1 2","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":1}"#,
      "'label' holds a blank or a control character"
    ),
    (
      #"{"count":1,"label":"123456789012345678901234567890123","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":1}"#,
      "'label' is not a string of at most 32 bytes"
    ),
    (
      #"{"count":1,"label":"1","dot":0,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":1}"#,
      "'dot' is not true or false"
    ),
    (
      #"{"count":5,"label":"5","dot":false,"muted":false,"unseen":0,"total":4,"seq":1,"owner":"a","claimed":1}"#,
      "'total' is below 'count'"
    ),
    (
      #"{"count":5,"label":"5","dot":false,"muted":false,"unseen":0,"total":9223372036854775807,"seq":1,"owner":"a","claimed":1}"#,
      "'total' is not a whole number from 0 to 9007199254740992"
    ),
    (
      #"{"count":1,"label":"1","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a b","claimed":1}"#,
      "'owner' is not a host name"
    ),
    (#"{"count":1,"label":"1","dot":false,"muted":false,"unseen":0,"seq":1,"claimed":1}"#, "'owner' is missing"),
    (
      #"{"count":1,"label":"1","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":0}"#,
      "'claimed' is not a whole number from 1 to 9223372036854775807"
    ),
    (
      #"{"count":1,"label":"1","dot":false,"muted":false,"unseen":0,"seq":1,"owner":"a","claimed":1,"pulse":3600001}"#,
      "'pulse' is not a whole number from 0 to 3600000"
    ),
  ])
  func aStateOutOfItsRangesIsRefused(text: String, reason: String) {
    #expect(Self.stateRefusal(text) == reason)
  }

  @Test func aHugePayloadIsRefusedBeforeItIsRead() {
    let huge = "{\"count\":" + String(repeating: " ", count: 5000) + "1}"
    #expect(Self.stateRefusal(huge) == "payload of 5011 bytes is over 4096")
  }

  @Test(arguments: [
    (ChannelCommand(.incr(1), id: "laptop:9f3a:41"), #"{"op":"incr","n":1,"id":"laptop:9f3a:41"}"#),
    (ChannelCommand(.decr(2), id: "a:1:2"), #"{"op":"decr","n":2,"id":"a:1:2"}"#),
    (ChannelCommand(.set(0), id: "a:1:3"), #"{"op":"set","n":0,"id":"a:1:3"}"#),
    (ChannelCommand(.clear(upTo: 17), id: "a:1:4"), #"{"op":"clear","upto":17,"id":"a:1:4"}"#),
    (ChannelCommand(.clear(upTo: nil)), #"{"op":"clear"}"#),
    (ChannelCommand(.seen(upTo: 9), id: "a:1:5"), #"{"op":"seen","upto":9,"id":"a:1:5"}"#),
    (ChannelCommand(.mute, id: "a:1:6"), #"{"op":"mute","id":"a:1:6"}"#),
    (ChannelCommand(.unmute), #"{"op":"unmute"}"#),
    (ChannelCommand(.pulse(ms: 2000), id: "a:1:7"), #"{"op":"pulse","ms":2000,"id":"a:1:7"}"#),
    (ChannelCommand(.pulse(ms: nil)), #"{"op":"pulse"}"#),
  ])
  func commandsAreWrittenAndReadBack(command: ChannelCommand, text: String) throws {
    #expect(String(decoding: command.payload, as: UTF8.self) == text)
    #expect(try ChannelCommand(payload: bytes(text)) == command)
  }

  @Test func anIncrOrDecrWithoutAnAmountIsOne() throws {
    #expect(try ChannelCommand(payload: bytes(#"{"op":"incr"}"#)) == ChannelCommand(.incr(1)))
  }

  @Test(arguments: [
    (#"{"op":"explode"}"#, "unknown op 'explode'"),
    (#"{"n":1}"#, "'op' is missing"),
    (#"{"op":"incr","n":0}"#, "'n' is not a whole number from 1 to 2147483647"),
    (#"{"op":"incr","n":2147483648}"#, "'n' is not a whole number from 1 to 2147483647"),
    (#"{"op":"set"}"#, "'n' is missing"),
    (#"{"op":"clear","upto":-1}"#, "'upto' is not a whole number from 0 to 9223372036854775807"),
    (#"{"op":"clear","n":3}"#, "unknown member 'n'"),
    (#"{"op":"incr","if_seq":3}"#, "unknown member 'if_seq'"),
    (#"{"op":"mute","id":"has space"}"#, "'id' is not a request id"),
    (#"{"op":"mute","id":7}"#, "'id' is not a string of at most 64 bytes"),
    (#"{"op":"pulse","ms":0}"#, "'ms' is not a whole number from 1 to 3600000"),
    (#"oops"#, "not JSON: expected a value at byte 0"),
  ])
  func aCommandThatDoesNotParseIsRefused(text: String, reason: String) {
    #expect(Self.commandRefusal(text) == reason)
  }

  @Test func answersCarryTheDaemonsError() throws {
    let ok = CommandAnswer(id: "a:1:2")
    #expect(String(decoding: ok.payload, as: UTF8.self) == #"{"id":"a:1:2","ok":true}"#)
    let refused = CommandAnswer(id: "a:1:3", error: "out-of-range the count would pass 2147483647")
    #expect(
      String(decoding: refused.payload, as: UTF8.self)
        == #"{"id":"a:1:3","ok":false,"error":"out-of-range the count would pass 2147483647"}"#)
    #expect(try CommandAnswer(payload: refused.payload) == refused)
    #expect(refused.code == "out-of-range")
    #expect(throws: PayloadError("a refusal without its error")) { try CommandAnswer(payload: bytes(#"{"ok":false}"#)) }
    #expect(throws: PayloadError("an answer both ok and with an error")) {
      try CommandAnswer(payload: bytes(#"{"ok":true,"error":"x"}"#))
    }
  }

  @Test func doNotDisturbStatesAndRequests() throws {
    let state = DNDState(on: true, until: 1_764_621_800_000, at: 1_764_620_000_123, host: "desktop")
    #expect(
      String(decoding: state.payload, as: UTF8.self)
        == #"{"on":true,"until":1764621800000,"at":1764620000123,"host":"desktop"}"#)
    #expect(try DNDState(payload: state.payload) == state)
    #expect(try DNDState(payload: bytes(#"{"on":false,"until":5,"at":1,"host":"a"}"#)).until == 0)
    #expect(try DNDRequest(payload: bytes("ON"), nowMs: 9) == .on(ms: nil))
    #expect(try DNDRequest(payload: bytes("OFF"), nowMs: 9) == .off)
    #expect(try DNDRequest(payload: bytes(#"{"on":true,"until":99}"#), nowMs: 9) == .on(ms: 90))
    #expect(try DNDRequest(payload: bytes(#"{"on":false}"#), nowMs: 9) == .off)
    #expect(throws: PayloadError.self) { try DNDRequest(payload: bytes("on"), nowMs: 9) }
    #expect(throws: PayloadError("'until' with 'on' false")) {
      try DNDRequest(payload: bytes(#"{"on":false,"until":9}"#), nowMs: 9)
    }
  }

  @Test func textIsCutAtWholeCharacters() {
    #expect("héllo".truncated(toUTF8: 2) == "h")
    #expect("héllo".truncated(toUTF8: 3) == "hé")
    #expect("abc".truncated(toUTF8: 5) == "abc")
  }
}
