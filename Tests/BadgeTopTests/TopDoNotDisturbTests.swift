import BadgeCore
import Testing

@testable import BadgeTop

/// While do-not-disturb hides badges, the dashboard still reads: the bar's badges follow
/// `dnd_badges` as `watch` does, but the page shows the count itself and says why the badges
/// are gone.
@Suite struct TopDoNotDisturbTests {
  func silenced(_ channel: String, _ count: Int, unseen: Int? = nil) -> ChannelSnapshot {
    ChannelSnapshot(
      channel: channel, count: count, label: "", dot: false, pulseMs: 0, muted: false, seq: 1,
      badge: unseen == nil ? .count : .unseen, silenced: .hide, unseen: unseen)
  }

  @Test func thePageShowsTheCountAndSaysDoNotDisturb() {
    var model = TopModel(options: TopOptions(colour: .palette256), rows: 32, columns: 100)
    model.update(silenced("mail", 7), at: 0)
    #expect(model.countFrame("mail", at: 5)?.label == "7")
    #expect(model.badgeFrame("mail", at: 5)?.label == "")
    let canvas = TopView.canvas(model, at: 5)
    #expect(canvas.text(row: TopLayout.titleRow).contains("do not disturb"))
    #expect(canvas.text(row: TopLayout.countRow).contains("█"))
  }

  @Test func thePageShowsTheCountNotTheNewItemsOfAnUnseenBadge() {
    var model = TopModel(options: TopOptions(colour: .palette256), rows: 32, columns: 100)
    model.update(silenced("mail", 12, unseen: 2), at: 0)
    #expect(model.countFrame("mail", at: 5)?.label == "12")
  }

  @Test func withoutDoNotDisturbTheTitleDoesNotMentionIt() {
    var model = TopModel(options: TopOptions(colour: .palette256), rows: 32, columns: 100)
    model.update(
      ChannelSnapshot(channel: "mail", count: 7, label: "7", dot: false, pulseMs: 0, muted: false, seq: 1), at: 0)
    #expect(!TopView.canvas(model, at: 5).text(row: TopLayout.titleRow).contains("do not disturb"))
  }
}
