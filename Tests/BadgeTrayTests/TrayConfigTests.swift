import BadgeConfig
import BadgeCore
import BadgeRender
import BadgeSystem
import BadgeTray
import TestSupport
import Testing

/// `TrayConfig.parse` over entries as the INI reader hands them out: every key's values and
/// refusals, with their messages.
@Suite struct TrayConfigTests {
  /// Entries of `[tray]` (unless a section is given), from line 2 on.
  static func parse(_ items: [(key: String, value: String)], section: String = "tray") throws(ConfigError)
    -> TrayConfig
  {
    let entries = items.enumerated().map {
      ConfigEntry(section: section, key: $1.key, value: $1.value, line: $0 + 2)
    }
    return try TrayConfig.parse(entries, file: "badged.conf")
  }

  /// The message `items` are refused with.
  static func failure(_ items: [(key: String, value: String)]) -> String? {
    failureDescription { () throws(ConfigError) in try parse(items) }
  }

  @Test func noSectionGivesTheDefaults() throws {
    let config = try TrayConfig.parse(
      [ConfigEntry(section: "daemon", key: "max_label", value: "9", line: 2)], file: "badged.conf")
    #expect(config == TrayConfig())
    #expect(config.items == [ChannelPattern("*")!])
    #expect(config.empty == .passive)
    #expect(config.activate == .open)
    #expect(config.scroll == .none)
    #expect(config.reduceMotion == .auto)
    #expect(config.badgeColour == RGB(0xD3, 0x2F, 0x2F))
    #expect(config.textColour == RGB(0xFF, 0xFF, 0xFF))
    #expect(config.glyphColour == RGB(0x80, 0x80, 0x80))
    #expect(config.maxLabel == 99)
  }

  @Test func otherSectionsAreNotRead() throws {
    #expect(try Self.parse([("items", "mail"), ("whatever", "x")], section: "mqtt") == TrayConfig())
    #expect(try Self.parse([("items", "mail")], section: "Tray") == TrayConfig())
  }

  @Test func itemsAreChannelNamesAndGlobsInOrder() throws {
    #expect(try Self.parse([("items", "mail chat:* ci")]).items.map(\.description) == ["mail", "chat:*", "ci"])
    #expect(try Self.parse([("items", "mail,ci\tapp:?x")]).items.map(\.description) == ["mail", "ci", "app:?x"])
    #expect(try Self.parse([("items", "*")]).items == [.all])
  }

  @Test func itemsRefusals() {
    #expect(
      Self.failure([("items", "mail chat:* mail")])
        == "badged.conf:2: Invalid value 'mail chat:* mail' for items: 'mail' is listed twice")
    #expect(
      Self.failure([("items", "")])
        == "badged.conf:2: Invalid value '' for items: expected at least one channel name or glob")
    #expect(
      Self.failure([("items", "mail .x")])
        == "badged.conf:2: Invalid value 'mail .x' for items: '.x' is not a channel name or glob "
        + "(\(ChannelName.namingRule), or * and ?)"
    )
  }

  @Test func words() throws {
    #expect(try Self.parse([("empty", "hide")]).empty == .hide)
    #expect(try Self.parse([("empty", "passive")]).empty == .passive)
    #expect(try Self.parse([("activate", "clear")]).activate == .clear)
    #expect(try Self.parse([("activate", "none")]).activate == TrayConfig.Activate.none)
    #expect(try Self.parse([("activate", "open")]).activate == .open)
    #expect(try Self.parse([("scroll", "step")]).scroll == .step)
    #expect(try Self.parse([("scroll", "none")]).scroll == TrayConfig.Scroll.none)
    #expect(try Self.parse([("reduce_motion", "yes")]).reduceMotion == .yes)
    #expect(try Self.parse([("reduce_motion", "no")]).reduceMotion == .no)
    #expect(try Self.parse([("reduce_motion", "auto")]).reduceMotion == .auto)
  }

  @Test func reduceMotionFollowsTheDesktopOnlyWhenAuto() {
    for animations: Bool? in [true, false, nil] {
      #expect(!TrayConfig.ReduceMotion.no.reduces(desktopAnimations: animations))
      #expect(TrayConfig.ReduceMotion.yes.reduces(desktopAnimations: animations))
    }
    #expect(TrayConfig.ReduceMotion.auto.reduces(desktopAnimations: false))
    #expect(!TrayConfig.ReduceMotion.auto.reduces(desktopAnimations: true))
    #expect(!TrayConfig.ReduceMotion.auto.reduces(desktopAnimations: nil))
  }

  @Test func wordRefusals() {
    #expect(
      Self.failure([("empty", "Hide")]) == "badged.conf:2: Invalid value 'Hide' for empty: expected 'passive' or 'hide'"
    )
    #expect(
      Self.failure([("activate", "toggle")])
        == "badged.conf:2: Invalid value 'toggle' for activate: expected 'open', 'clear' or 'none'")
    #expect(
      Self.failure([("scroll", "yes")]) == "badged.conf:2: Invalid value 'yes' for scroll: expected 'none' or 'step'")
    #expect(
      Self.failure([("reduce_motion", "on")])
        == "badged.conf:2: Invalid value 'on' for reduce_motion: expected 'no', 'yes' or 'auto'")
  }

  @Test func colours() throws {
    let config = try Self.parse([("badge_colour", "#1565C0"), ("text_colour", "ffffff"), ("glyph_colour", "#000000")])
    #expect(config.badgeColour == RGB(0x15, 0x65, 0xC0))
    #expect(config.textColour == RGB(0xFF, 0xFF, 0xFF))
    #expect(config.glyphColour == RGB(0, 0, 0))
  }

  @Test func colourRefusals() {
    for key in ["badge_colour", "text_colour", "glyph_colour"] {
      #expect(
        Self.failure([(key, "red")]) == "badged.conf:2: Invalid value 'red' for \(key): expected a colour #rrggbb")
      #expect(
        Self.failure([(key, "#fff")]) == "badged.conf:2: Invalid value '#fff' for \(key): expected a colour #rrggbb")
    }
  }

  @Test func textUnderFourAndAHalfToOneOnTheBadgeIsRefused() {
    #expect(
      Self.failure([("badge_colour", "#FF3B30")])
        == "badged.conf:2: text_colour #ffffff on badge_colour #ff3b30 has a contrast of 3.55:1; at least 4.5:1 is "
        + "needed")
    // At the later of the two lines, whichever key it is.
    #expect(
      Self.failure([("badge_colour", "#000000"), ("empty", "hide"), ("text_colour", "#333333")])
        == "badged.conf:4: text_colour #333333 on badge_colour #000000 has a contrast of 1.66:1; at least 4.5:1 is "
        + "needed")
    #expect(
      Self.failure([("text_colour", "#ffffff"), ("badge_colour", "#ffff00")])
        == "badged.conf:3: text_colour #ffffff on badge_colour #ffff00 has a contrast of 1.07:1; at least 4.5:1 is "
        + "needed")
    // Black on the seed's red passes.
    #expect(Self.failure([("badge_colour", "#FF3B30"), ("text_colour", "#000000")]) == nil)
  }

  @Test func maxLabel() throws {
    #expect(try Self.parse([("max_label", "1")]).maxLabel == 1)
    #expect(try Self.parse([("max_label", "9999")]).maxLabel == 9999)
    #expect(
      Self.failure([("max_label", "0")])
        == "badged.conf:2: Invalid value '0' for max_label: expected a number from 1 to 9999")
    #expect(
      Self.failure([("max_label", "10000")])
        == "badged.conf:2: Invalid value '10000' for max_label: expected a number from 1 to 9999")
    #expect(
      Self.failure([("max_label", "-1")]) == "badged.conf:2: Invalid value '-1' for max_label: expected a whole number")
  }

  @Test func anUnknownKeyIsRefusedWithTheKeysThatAre() {
    #expect(
      Self.failure([("items", "mail"), ("colour", "red")])
        == "badged.conf:3: Unknown key 'colour' in [tray]; expected one of items, empty, activate, scroll, "
        + "reduce_motion, badge_colour, text_colour, glyph_colour, max_label")
  }

  @Test func theFirstFaultInFileOrderIsReported() {
    #expect(
      Self.failure([("max_label", "x"), ("scroll", "x")])
        == "badged.conf:2: Invalid value 'x' for max_label: expected a whole number")
  }

  @Test func aKeyGivenTwiceKeepsItsLaterValue() throws {
    #expect(try Self.parse([("max_label", "9"), ("max_label", "50")]).maxLabel == 50)
  }

  /// config/badged.conf writes every key of [tray] out with its default value.
  @Test func theExampleConfigsSectionIsTheDefaults() throws {
    let example = Repository.path("config/badged.conf")
    let entries = try IniFile.read(path: example)
    #expect(Set(entries.filter { $0.section == "tray" }.map(\.key)) == Set(TrayConfig.Key.allCases.map(\.rawValue)))
    #expect(try TrayConfig.parse(entries, file: example) == TrayConfig())
  }
}
