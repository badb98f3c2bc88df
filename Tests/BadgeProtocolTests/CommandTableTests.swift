import Testing

@testable import BadgeCore
@testable import BadgeProtocol

/// The command table: each request's row, and what the rows say a request takes and who may
/// send it.
@Suite struct CommandTableTests {
  static let mail = name("mail")

  /// Every form of every command, with its word, whether it takes an id and `upto=`, and whether
  /// only the bridge sends it.
  static let forms: [(Request, String, id: Bool, upTo: Bool, bridgeOnly: Bool)] = [
    (.hello, "HELLO", false, false, false),
    (.ping, "PING", false, false, false),
    (.write(mail, .incr(1)), "INCR", true, false, false),
    (.write(mail, .decr(1)), "DECR", true, false, false),
    (.write(mail, .set(0)), "SET", true, false, false),
    (.write(mail, .clear(upTo: nil)), "CLEAR", true, true, false),
    (.clearAll, "CLEAR", true, false, false),
    (.get(mail), "GET", false, false, false),
    (.list, "LIST", false, false, false),
    (.write(mail, .mute), "MUTE", true, false, false),
    (.write(mail, .unmute), "UNMUTE", true, false, false),
    (.configure(mail, set: SettingsOverride(step: 2), reset: []), "CONFIGURE", true, false, false),
    (.watch([]), "WATCH", false, false, false),
    (.unwatch, "UNWATCH", false, false, false),
    (.reload, "RELOAD", false, false, false),
    (.quit, "QUIT", false, false, false),
    (.stats(.day, []), "STATS", false, false, false),
    (.write(mail, .seen(upTo: nil)), "SEEN", true, true, false),
    (.seenAll, "SEEN", true, false, false),
    (.write(mail, .pulse(ms: nil)), "PULSE", false, false, false),
    (.dnd(.query), "DND", false, false, false),
    (.dnd(.on(ms: nil)), "DND", true, false, false),
    (.dnd(.off), "DND", true, false, false),
    (.dnd(.toggle), "DND", true, false, false),
    (.remoteDND(RemoteDND(on: true, from: "desk", at: 1)), "DND", false, false, true),
    (.bridge(.query), "BRIDGE", false, false, false),
    (.bridge(.attach(host: "laptop")), "BRIDGE", false, false, false),
    (.bridge(.status(BridgeStatus(connected: true))), "BRIDGE", false, false, true),
    (
      .mirror(mail, MirrorUpdate(owner: "desk", count: 1, unseen: 1, total: 1, muted: false, dot: false)), "MIRROR",
      false, false, true
    ),
    (.forgetMirror(mail), "MIRROR", false, false, true),
    (.stale(host: "desk", stale: true, since: nil), "STALE", false, false, true),
    (.forwards, "FORWARDS", false, false, true),
    (.delivered("l:1:1"), "DELIVERED", false, false, true),
  ]

  @Test(arguments: forms)
  func eachRequestIsAFormOfItsWordsRow(
    _ request: Request, _ word: String, id: Bool, upTo: Bool, bridgeOnly: Bool
  ) throws {
    let command = request.command
    #expect(command.word.description == word)
    #expect(!command.flags.contains(.hasForms) || command.arguments != nil)
    #expect(request.takesID == id && command.flags.contains(.takesID) == id)
    #expect(command.flags.contains(.takesUpTo) == upTo)
    #expect(request.isBridgeOnly == bridgeOnly && command.flags.contains(.bridgeOnly) == bridgeOnly)
    // The word finds the row that reads every form of it, whose usage the form's errors quote;
    // a request whose row is not its word's is a form of a word that says it has forms.
    let row = try #require(Request.Command.all.first { $0.word.description == word })
    #expect(row.arguments != nil && row.usage == command.usage)
    if command.arguments == nil || command.flags != row.flags {
      #expect(row.flags.contains(.hasForms))
    }
  }

  /// The forms whose rights differ from their word's are rows of their own, never found by
  /// the word: only the word's row reads the line.
  @Test func formsAreNotLookedUp() {
    for form in [Request.Command.clearAll, .seenAll, .dndQuery, .remoteDND, .bridgeStatus] {
      #expect(form.arguments == nil, "\(form.word)")
      let word = Array(form.word.description.utf8)
      let found = word.withUnsafeBytes { Request.Command.named($0) }
      #expect(found?.arguments != nil)
    }
  }

  @Test func everyWordIsFoundInAnyCase() {
    for command in Request.Command.all {
      for spelling in [command.word.description, command.word.description.lowercased()] {
        let found = Array(spelling.utf8).withUnsafeBytes { Request.Command.named($0) }
        #expect(found?.word.description == command.word.description, "\(spelling)")
      }
    }
    #expect(Array("INCRE".utf8).withUnsafeBytes { Request.Command.named($0) } == nil)
  }

  /// `upto=` is taken by the forms whose row says so, and applies to them.
  @Test func uptoReachesTheFormsThatTakeIt() {
    #expect(Request.write(Self.mail, .clear(upTo: nil)).reaching(9) == .write(Self.mail, .clear(upTo: 9)))
    #expect(Request.write(Self.mail, .seen(upTo: nil)).reaching(0) == .write(Self.mail, .seen(upTo: 0)))
    for (request, _, _, upTo, _) in Self.forms where upTo {
      #expect(request.reaching(5) != request)
    }
  }
}
