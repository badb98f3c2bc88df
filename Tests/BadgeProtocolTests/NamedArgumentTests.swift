import BadgeProtocol
import Testing

@testable import BadgeCore

/// `upto=<total>` and `id=<token>`: where they may stand, what they make of a request, and every
/// way they are refused.
@Suite struct NamedArgumentTests {
  static func id(_ token: String, _ request: Request) -> RequestID {
    RequestID(token: token, fingerprint: request.fingerprint)!
  }

  @Test(arguments: [
    ("CLEAR mail upto=5", Request.write(name("mail"), .clear(upTo: 5))),
    ("CLEAR mail upto=0", .write(name("mail"), .clear(upTo: 0))),
    ("clear  mail\tupto=7", .write(name("mail"), .clear(upTo: 7))),
    ("SEEN chat upto=2", .write(name("chat"), .seen(upTo: 2))),
    ("CLEAR mail upto=99999999999999999999999", .write(name("mail"), .clear(upTo: Int.max))),
  ])
  func uptoClearsOrSeesUpToATotal(line: String, request: Request) {
    #expect(parseLine(line) == .success(RequestLine(request)))
  }

  @Test(arguments: [
    ("INCR ci id=laptop:1", Request.write(name("ci"), .incr(1))),
    ("INCR ci 3 id=laptop:1", .write(name("ci"), .incr(3))),
    ("DECR ci id=x", .write(name("ci"), .decr(1))),
    ("SET ci 0 id=x", .write(name("ci"), .set(0))),
    ("CLEAR ci upto=4 id=x", .write(name("ci"), .clear(upTo: 4))),
    ("CLEAR * id=x", .clearAll),
    ("SEEN * id=x", .seenAll),
    ("MUTE ci id=x", .write(name("ci"), .mute)),
    ("UNMUTE ci id=x", .write(name("ci"), .unmute)),
    ("CONFIGURE ci step=5 id=x", .configure(name("ci"), set: SettingsOverride(step: 5), reset: [])),
    ("DND on 30m id=x", .dnd(.on(ms: 1_800_000))),
    ("DND toggle id=x", .dnd(.toggle)),
    ("INCR ci id=" + String(repeating: "t", count: 64), .write(name("ci"), .incr(1))),
  ])
  func anyChangingRequestTakesAnId(line: String, request: Request) throws {
    let parsed = try #require(try parseLine(line)?.get())
    #expect(parsed.request == request)
    let token = String(line.split(separator: " ").first { $0.hasPrefix("id=") }!.dropFirst(3))
    #expect(parsed.id == Self.id(token, request))
  }

  /// The same request, however it is spelled, has one fingerprint; another request has another.
  @Test func theSameRequestHasOneFingerprint() throws {
    let spellings = ["INCR mail id=a", "incr  mail 1 id=a", "Incr mail 01\tid=a"]
    let ids = try spellings.map { try #require(try parseLine($0)?.get().id) }
    #expect(Set(ids).count == 1)
    let others = ["INCR mail 2 id=a", "DECR mail id=a", "INCR chat id=a", "CLEAR mail id=a", "CLEAR mail upto=1 id=a"]
    let otherIDs = try others.map { try #require(try parseLine($0)?.get().id) }
    #expect(Set(otherIDs + [ids[0]]).count == others.count + 1)
    #expect(otherIDs.allSatisfy { $0.sameToken(as: ids[0]) })
    // CONFIGURE's settings in any order, and a key given twice, mean one setting each.
    let configure = try ["CONFIGURE ci step=5 style=dot id=c", "CONFIGURE ci style=count style=dot step=5 id=c"]
      .map { try #require(try parseLine($0)?.get().id) }
    #expect(configure[0] == configure[1])
  }

  @Test(arguments: [
    ("INCR ci id=", ProtocolError.Code.badArguments, "Invalid id ''; \(RequestID.tokenRule)"),
    ("INCR ci 1 id=a b", .badArguments, "Unexpected argument 'b'; usage: INCR <channel> [n]"),
    (
      "INCR ci id=" + String(repeating: "t", count: 65), .badArguments,
      "Invalid id '\(String(repeating: "t", count: 64))…'; \(RequestID.tokenRule)"
    ),
    ("INCR ci id=a/b", .badArguments, "Invalid id 'a/b'; \(RequestID.tokenRule)"),
    ("INCR ci id=a=b", .badArguments, "Invalid id 'a=b'; \(RequestID.tokenRule)"),
    ("INCR ci id=é", .badArguments, "Invalid id 'é'; \(RequestID.tokenRule)"),
    ("INCR ci id=a id=b", .badArguments, "'id=' is given twice; usage: INCR <channel> [n]"),
    ("INCR ci id=a id=a", .badArguments, "'id=' is given twice; usage: INCR <channel> [n]"),
    ("GET ci id=a", .badArguments, "GET takes no id=: ids are for requests that change something"),
    ("PULSE ci id=a", .badArguments, "PULSE takes no id=: ids are for requests that change something"),
    ("WATCH ci id=a", .badArguments, "WATCH takes no id=: ids are for requests that change something"),
    ("DND id=a", .badArguments, "DND takes no id=: ids are for requests that change something"),
    ("CLEAR ci upto=", .badNumber, "Invalid upto ''; expected a running total, a whole number from 0"),
    ("CLEAR ci upto=-1", .badNumber, "Invalid upto '-1'; expected a running total, a whole number from 0"),
    ("CLEAR ci upto=x", .badNumber, "Invalid upto 'x'; expected a running total, a whole number from 0"),
    ("CLEAR ci upto=1.5", .badNumber, "Invalid upto '1.5'; expected a running total, a whole number from 0"),
    (
      "CLEAR ci upto=1 upto=2", .badArguments, "'upto=' is given twice; usage: CLEAR <channel> [upto=<total>] | CLEAR *"
    ),
    (
      "CLEAR * upto=1", .badArguments,
      "upto= takes one channel, not *: each channel has its own total; usage: CLEAR <channel> [upto=<total>] | CLEAR *"
    ),
    (
      "SEEN * upto=1", .badArguments,
      "upto= takes one channel, not *: each channel has its own total; usage: SEEN <channel> [upto=<total>] | SEEN *"
    ),
    ("INCR ci upto=1", .badArguments, "INCR takes no upto=; usage: INCR <channel> [n]"),
    ("SET ci 1 upto=1", .badArguments, "SET takes no upto=; usage: SET <channel> <n>"),
    (
      "CONFIGURE ci step=2 upto=1", .badArguments,
      "CONFIGURE takes no upto=; usage: CONFIGURE <channel> <key>=<value|default> ..."
    ),
    ("CLEAR upto=1", .badName, "Invalid channel name 'upto=1'; \(ChannelName.namingRule)"),
    ("INCR ci id=a 3", .badArguments, "Unexpected argument '3'; usage: INCR <channel> [n]"),
    ("PULSE ci id=a 300", .badArguments, "Unexpected argument '300'; usage: PULSE <channel> [ms]"),
    ("CONFIGURE ci id=a", .badArguments, "Missing setting; usage: CONFIGURE <channel> <key>=<value|default> ..."),
  ])
  func badNamedWordsAreRefused(line: String, code: ProtocolError.Code, message: String) {
    #expect(parseLine(line) == .failure(ProtocolError(code, message)))
  }

  /// A named word is recognised only as written: in lower case, with its `=`, after the
  /// positional arguments.
  @Test func onlyTheNamesAsWrittenAreNamedWords() {
    #expect(
      parseLine("INCR ci ID=a")
        == .failure(ProtocolError(.badNumber, "Invalid number 'ID=a'; expected a whole number from 1 to 2147483647")))
    #expect(parseLine("INCR idle") == .success(RequestLine(.write(name("idle"), .incr(1)))))
    #expect(parseLine("INCR upto") == .success(RequestLine(.write(name("upto"), .incr(1)))))
    #expect(parseLine("id=a INCR ci") == .failure(ProtocolError(.unknownCommand, "Unknown command 'id=a'")))
  }
}
