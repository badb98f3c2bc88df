import BadgeCore
import TestSupport
import Testing

@testable import BadgeRender

/// A dialect that shows what it escapes («…») and where the badge goes ([…]).
struct MarkingDialect: TextDialect {
  func escape(_ text: String) -> String { "«" + text + "»" }
  func badge(_ frame: BadgeFrame) -> String { "[" + frame.label + "]" }
}

@Suite struct TemplateTests {
  @Test func parsesPlaceholdersAndLiterals() throws {
    let template = try Template("{icon} {label}")
    #expect(template.parts == [.placeholder(.icon), .literal(" "), .placeholder(.label)])
    #expect(template.source == "{icon} {label}")
  }

  @Test func doubledBracesAreLiteral() throws {
    let template = try Template("{{{count}}} }")
    #expect(template.parts == [.literal("{"), .placeholder(.count), .literal("} }")])
  }

  @Test func everyPlaceholderIsKnown() throws {
    let template = try Template("{channel}{count}{label}{icon}{text}")
    #expect(template.parts.count == 5)
  }

  @Test func unknownPlaceholderIsAClearError() {
    #expect(throws: TemplateError(template: "{icon} {lable}", position: 7, reason: .unknownPlaceholder("lable"))) {
      try Template("{icon} {lable}")
    }
    let error = TemplateError(template: "{icon} {lable}", position: 7, reason: .unknownPlaceholder("lable"))
    #expect(
      error.description
        == "Unknown placeholder '{lable}' in template '{icon} {lable}'; expected {channel}, {count}, {label}, "
        + "{icon} or {text}"
    )
  }

  @Test func unclosedBraceIsAClearError() {
    #expect(throws: TemplateError(template: "mail {count", position: 5, reason: .unclosedBrace)) {
      try Template("mail {count")
    }
    let error = TemplateError(template: "mail {count", position: 5, reason: .unclosedBrace)
    #expect(error.description == "Unclosed '{' at position 5 in template 'mail {count'; write '{{' for a literal brace")
  }

  @Test func defaultsAreWhatTheyClaim() throws {
    #expect(Template.label == (try Template("{label}")))
    #expect(Template.channelAndLabel == (try Template("{channel} {label}")))
  }

  @Test func rendersEveryPlaceholderThroughTheDialect() throws {
    let template = try Template("{icon} {channel}: {count} {label} {text}")
    let frame = BadgeFrame(channel: "ci", count: 120, label: "99+")
    let text = TextLine.render(template, frame, in: MarkingDialect(), icons: .standard)
    #expect(text == "«●»« »«ci»«: »120« »[99+]« »«ci: 120 unread (shown as 99+)»")
  }

  @Test func channelsJoinWithTheEscapedSeparator() {
    let frames = [
      BadgeFrame(channel: "a", count: 1, label: "1"), BadgeFrame(channel: "b", count: 0, label: ""),
      BadgeFrame(channel: "c", count: 2, label: "2"),
    ]
    let options = RenderOptions(separator: "|")
    #expect(
      TextLine.compose(frames, in: MarkingDialect(), options: options)
        == "«a»« »[1]«|»«c»« »[2]")
    #expect(
      TextLine.compose(frames, in: MarkingDialect(), options: options, keepsHidden: true)
        == "«a»« »[1]«|»«b»« »[]«|»«c»« »[2]")
    #expect(TextLine.compose(Array(frames.prefix(1)), in: MarkingDialect(), options: options) == "[1]")
  }

  @Test func iconFollowsTheState() throws {
    let template = try Template("{icon}")
    let icons = IconSet(unread: "U", muted: "M", zero: "Z", offline: "O")
    let frames = [
      BadgeFrame(channel: "a", count: 1, label: "1"),
      BadgeFrame(channel: "a", count: 1, label: "1", muted: true),
      BadgeFrame(channel: "a", count: 0, label: ""),
      BadgeFrame(channel: "a", count: 1, label: "1", online: false),
    ]
    let shown = frames.map { TextLine.render(template, $0, in: MarkingDialect(), icons: icons) }
    #expect(shown == ["«U»", "«M»", "«Z»", "«O»"])
  }
}

@Suite struct AccessibleTextTests {
  @Test(arguments: [
    (BadgeFrame(channel: "mail", count: 4, label: "4"), "mail: 4 unread"),
    (BadgeFrame(channel: "ci", count: 120, label: "99+"), "ci: 120 unread (shown as 99+)"),
    (BadgeFrame(channel: "mail", count: 12, label: "9+"), "mail: 12 unread (shown as 9+)"),
    (BadgeFrame(channel: "mail", count: 0, label: ""), "mail: no unread"),
    (BadgeFrame(channel: "alerts", count: 3, label: "•", dot: true), "alerts: 3 unread"),
    (BadgeFrame(channel: "mail", count: 4, label: "4", muted: true), "mail: 4 unread, muted"),
    (BadgeFrame(channel: "mail", count: 4, label: "4", online: false), "mail: offline (last 4 unread)"),
    (BadgeFrame(channel: "mail", count: 0, label: "", online: false), "mail: offline"),
    (
      BadgeFrame(channel: "mail", count: 2, label: "2", muted: true, online: false),
      "mail: offline (last 2 unread), muted"
    ),
    (BadgeFrame(channel: "ci", count: 3, label: "3", mirror: MirrorState(owner: "server")), "ci: 3 unread (on server)"),
    (
      BadgeFrame(channel: "ci", count: 3, label: "3", mirror: MirrorState(owner: "server", stale: true, since: 5)),
      "ci: 3 unread (on server, offline)"
    ),
    (
      BadgeFrame(channel: "ci", count: 0, label: "", mirror: MirrorState(owner: "server", stale: true, pending: true)),
      "ci: no unread (on server, offline, changes waiting)"
    ),
  ])
  func wording(_ frame: BadgeFrame, _ expected: String) {
    #expect(AccessibleText.describe(frame) == expected)
  }

  @Test func mirroredChannelsHaveClassesOfTheirOwn() {
    let local = BadgeFrame(channel: "mail", count: 1, label: "1")
    let stale = BadgeFrame(channel: "ci", count: 1, label: "1", mirror: MirrorState(owner: "s", stale: true))
    let pending = BadgeFrame(channel: "ci", count: 1, label: "1", mirror: MirrorState(owner: "s", pending: true))
    #expect(BadgeFrame.classes(of: [local]) == ["unread"])
    #expect(BadgeFrame.classes(of: [local, stale]) == ["unread", "stale"])
    #expect(BadgeFrame.classes(of: [pending]) == ["unread", "pending"])
  }

  @Test func severalChannelsOnePerLine() {
    let frames = [
      BadgeFrame(channel: "mail", count: 4, label: "4"), BadgeFrame(channel: "ci", count: 0, label: ""),
    ]
    #expect(AccessibleText.describe(frames) == "mail: 4 unread\nci: no unread")
  }

  @Test func fadingOutDescribesTheNewCountNotTheFadingLabel() {
    let frame = BadgeFrame(channel: "mail", count: 0, label: "", drawnLabel: "3", opacity: 0.4)
    #expect(AccessibleText.describe(frame) == "mail: no unread")
  }
}

/// numericText: only the glyphs that change move.
@Suite struct LabelCellTests {
  static func cells(_ from: String, _ to: String, offset: Double) -> [LabelCell] {
    let direction: RollDirection = offset >= 0 ? .up : .down
    let frame = BadgeFrame(
      channel: "c", count: 0, label: to, roll: Roll(from: from, direction: direction, offset: offset))
    return LabelCell.cells(of: frame)
  }

  @Test func onlyChangedColumnsMove() {
    let cells = Self.cells("19", "20", offset: 0.5)
    #expect(cells.map(\.leaving) == ["1", "9"])
    #expect(Self.cells("10", "11", offset: 0.5).map(\.leaving) == [nil, "0"])
    #expect(Self.cells("10", "11", offset: 0.5)[0] == LabelCell(glyph: "1"))
  }

  @Test func labelsAlignOnTheRight() {
    let cells = Self.cells("9", "10", offset: 0.9)
    #expect(cells.map(\.glyph) == ["1", "0"])
    #expect(cells.map(\.leaving) == [" ", "9"])
    #expect(LabelCell.text(of: cells) == " 9")
    #expect(LabelCell.text(of: Self.cells("10", "9", offset: -0.2)) == " 9")
  }

  @Test func ownershipPassesHalfWay() {
    let early = Self.cells("3", "4", offset: 0.6)[0]
    #expect(early.owner.glyph == "3")
    expectClose(early.owner.offset, -0.4, 1e-12)
    expectClose(early.ownerAlpha, 0.2, 1e-12)
    let late = Self.cells("3", "4", offset: 0.25)[0]
    #expect(late.owner.glyph == "4")
    expectClose(late.ownerAlpha, 0.5, 1e-12)
    let down = Self.cells("4", "3", offset: -0.75)[0]
    #expect(down.owner.glyph == "4")
    expectClose(down.owner.offset, 0.25, 1e-12)
  }

  @Test func offlineAddsAQuestionMark() {
    let frame = BadgeFrame(channel: "c", count: 4, label: "4", online: false)
    #expect(LabelCell.text(of: LabelCell.cells(of: frame)) == "4?")
    let empty = BadgeFrame(channel: "c", count: 0, label: "", online: false)
    #expect(LabelCell.text(of: LabelCell.cells(of: empty)) == "?")
    #expect(!empty.isHidden)
  }
}
