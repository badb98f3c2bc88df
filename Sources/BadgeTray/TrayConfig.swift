import BadgeCore
import BadgeRender

/// badged-tray's configuration: the `[tray]` section of badged.conf, validated
/// (`TrayConfig+Parse.swift`). The defaults are what a file without the section gives.
public struct TrayConfig: Sendable, Equatable {
  /// `empty =`: what an item whose group counts 0 does.
  public enum Empty: String, Sendable, CaseIterable {
    /// It stays in the tray with status Passive (hosts may tuck it away).
    case passive
    /// It leaves the tray until a count appears.
    case hide
  }

  /// `activate =`: what a left click on an item does.
  public enum Activate: String, Sendable, CaseIterable {
    /// Opens the app of the group's app channel with most unread; clears the group when no
    /// app channel has any.
    case open
    /// Clears the group up to what the icon shows.
    case clear
    case none
  }

  /// `scroll =`: what the wheel over an item does.
  public enum Scroll: String, Sendable, CaseIterable {
    case none
    /// Up adds one, down takes one away, on a group of one channel.
    case step
  }

  /// `reduce_motion =`: whether badges move.
  public enum ReduceMotion: String, Sendable, CaseIterable {
    /// Motion on.
    case no
    /// States change without motion.
    case yes
    /// As the desktop says (the settings portal's `enable-animations`); motion on when no portal
    /// answers.
    case auto
    /// Whether states change without motion, given the desktop's `enable-animations` (`nil`
    /// when no settings portal answered).
    public func reduces(desktopAnimations: Bool?) -> Bool {
      switch self {
      case .no: return false
      case .yes: return true
      case .auto: return desktopAnimations == false
      }
    }
  }

  /// The keys `[tray]` accepts.
  public enum Key: String, Sendable, CaseIterable {
    case items
    case empty
    case activate
    case scroll
    case reduceMotion = "reduce_motion"
    case badgeColour = "badge_colour"
    case textColour = "text_colour"
    case glyphColour = "glyph_colour"
    case maxLabel = "max_label"
  }

  /// `items =`: one tray item per pattern, in this order; each shows the channels it matches.
  public var items: [ChannelPattern] = [.all]
  public var empty: Empty = .passive
  public var activate: Activate = .open
  public var scroll: Scroll = .none
  public var reduceMotion: ReduceMotion = .auto
  /// `badge_colour =`: the capsule and the dot. A darker red than the seed's #FF3B30, which
  /// white text reads on at only 3.55:1; this one gives 4.98:1.
  public var badgeColour = RGB(0xD3, 0x2F, 0x2F)
  /// `text_colour =`: the count on the capsule.
  public var textColour = RGB(0xFF, 0xFF, 0xFF)
  /// `glyph_colour =`: the bell. A mid grey that reads on light and dark panels alike.
  public var glyphColour = RGB(0x80, 0x80, 0x80)
  /// `max_label =`: the largest count shown as a number; past it the label is `<max_label>+`.
  public var maxLabel = 99

  /// The lowest contrast of the text on the badge that is accepted (WCAG's AA for normal text).
  public static let minimumContrast = 4.5
  /// The values `max_label` accepts: a label of at most four digits and a `+`.
  public static let maxLabelRange = 1...9999

  public init() {}
}
