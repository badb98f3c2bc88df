import TestSupport
import Testing

@testable import BadgeCore
@testable import BadgeRender

/// How formats show do-not-disturb, the quiet dot and new items.
@Suite struct AttentionRenderTests {
  /// A `badge = unseen` snapshot as the daemon sends it.
  func unseen(_ count: Int, new: Int, silenced: DNDBadges? = nil) -> ChannelSnapshot {
    let settings = ChannelSettings(maxLabel: 99, style: .count, pulseMs: 0, muted: false, badge: .unseen)
    return ChannelSnapshot(
      channel: "mail", count: count, label: Label.text(count: count, unseen: new, settings: settings), dot: false,
      pulseMs: 0, muted: false, seq: 1, badge: .unseen, silenced: silenced, unseen: new)
  }

  @Test func tooltipsSayHowManyAreNew() {
    var watcher = ManualWatcher(.waybar)
    watcher.receive(unseen(4, new: 1))
    let waybar = watcher.draw()
    #expect(waybar.contains(#""text":"1""#), "the label counts the new items: \(waybar)")
    #expect(waybar.contains(#""tooltip":"mail: 4 unread, 1 new""#), "\(waybar)")
    #expect(!waybar.contains("quiet"))
  }

  @Test func allSeenIsTheQuietDotInEveryFormat() {
    for format in [OutputFormat.waybar, .json, .plain, .i3blocks, .tmux, .polybar, .yambar] {
      var watcher = ManualWatcher(format, animator: AnimatorOptions(noMotion: true))
      watcher.receive(unseen(4, new: 0))
      let text = watcher.draw()
      #expect(text.contains(Label.quietDot), "\(format): \(text)")
    }
    var json = ManualWatcher(.json)
    json.receive(unseen(4, new: 0))
    let line = json.draw()
    #expect(
      line.contains(#""text":"mail: 4 unread, all seen""#) && line.contains(#""class":["unread","quiet"]"#), "\(line)")
    var yambar = ManualWatcher(.yambar)
    yambar.receive(unseen(4, new: 0))
    #expect(yambar.draw().contains("quiet|bool|true"))
  }

  @Test func aWatchersOwnLimitCountsWhatTheBadgeCounts() {
    var watcher = ManualWatcher(.json, animator: AnimatorOptions(maxLabel: 9))
    watcher.receive(unseen(40, new: 12))
    #expect(watcher.draw().contains(#""shown":"9+""#))
    watcher.receive(unseen(40, new: 0))
    #expect(watcher.draw().contains(#""shown":"◦""#))
  }

  @Test func hideHidesDimDimsShowShows() {
    let plain = ChannelSnapshot(channel: "mail", count: 3, label: "3", dot: false, pulseMs: 0, muted: false, seq: 1)
    var hidden = plain
    hidden.silenced = .hide
    var dimmed = plain
    dimmed.silenced = .dim
    var shown = plain
    shown.silenced = .show
    func frame(_ snapshot: ChannelSnapshot) -> BadgeFrame {
      var watcher = ManualWatcher(.json, animator: AnimatorOptions(noMotion: true))
      watcher.receive(snapshot)
      return watcher.group.frames(at: watcher.now)[0]
    }
    #expect(frame(hidden).isHidden && frame(hidden).classes.contains("dnd"))
    #expect(frame(dimmed).inkOpacity == BadgeMotions.mutedOpacity && frame(dimmed).drawnLabel == "3")
    #expect(frame(shown).inkOpacity == 1 && frame(shown).classes == ["unread", "dnd"])
    #expect(frame(plain).classes == ["unread"])
    #expect(AccessibleText.describe(frame(dimmed)) == "mail: 3 unread, do not disturb")
  }
}
