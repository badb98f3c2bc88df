import BadgeCore
import BadgeMesh
import Testing

/// Topics: names escaped reversibly into one level, and incoming topics read back.
@Suite struct TopicTests {
  let topics = MeshTopics(prefix: "badged/ana", host: "desktop")

  @Test(arguments: [
    ("mail", "mail"), ("a/b", "a%2Fb"), ("a+b#c", "a%2Bb%23c"), ("100%", "100%25"), ("$SYS", "%24SYS"),
    ("a$b", "a$b"), ("nul\u{0}", "nul%00"), ("é/ü", "é%2Fü"),
  ])
  func escapingIsReversible(text: String, level: String) {
    #expect(TopicLevel.escape(text) == level)
    #expect(TopicLevel.unescape(Substring(level)) == text)
  }

  @Test(arguments: ["a%2fb", "a%41", "a%", "a%2", "a/b", "a+b", "#", "$SYS", "a%24b", "%2"])
  func aLevelEscapeNeverWritesDoesNotParse(level: String) {
    #expect(TopicLevel.unescape(Substring(level)) == nil)
  }

  @Test func topicsOfOneUser() {
    #expect(topics.ownStatus == "badged/ana/host/desktop/status")
    #expect(topics.reply(from: "desktop", to: "laptop") == "badged/ana/host/desktop/reply/laptop")
    #expect(topics.ownSync == "badged/ana/host/desktop/sync")
    #expect(
      topics.state(of: name("app:org.telegram.desktop"), by: "nas")
        == "badged/ana/host/nas/ch/app:org.telegram.desktop/state")
    #expect(topics.ownState(of: name("mail")) == "badged/ana/host/desktop/ch/mail/state")
    #expect(topics.oldState(of: name("mail")) == "badged/ana/ch/mail/state")
    #expect(topics.command(to: name("mail")) == "badged/ana/ch/mail/cmd")
    #expect(topics.ownDND == "badged/ana/host/desktop/dnd" && topics.dndSet == "badged/ana/dnd/set")
    #expect(
      topics.retainedSubscriptions(dndShared: true, homeAssistant: true) == [
        "badged/ana/host/+/status", "badged/ana/host/+/ch/+/state", "badged/ana/ch/+/state", "badged/ana/host/+/dnd",
        "homeassistant/status",
      ])
    #expect(topics.retainedSubscriptions(dndShared: false, homeAssistant: false).count == 3)
    #expect(
      topics.messageSubscriptions(dndShared: true) == [
        "badged/ana/ch/+/cmd", "badged/ana/host/+/reply/desktop", "badged/ana/dnd/set", "badged/ana/host/desktop/sync",
      ])
    #expect(topics.messageSubscriptions(dndShared: false).count == 3)
  }

  @Test func incomingTopicsAreReadBack() {
    #expect(topics.classify("badged/ana/host/nas/ch/mail/state") == .state(name("mail"), host: "nas"))
    #expect(topics.classify("badged/ana/ch/mail/state") == .oldState(name("mail")))
    #expect(topics.classify("badged/ana/ch/mail/cmd") == .command(name("mail")))
    #expect(topics.classify("badged/ana/host/laptop/status") == .status(host: "laptop"))
    #expect(topics.classify("badged/ana/host/laptop/reply/desktop") == .reply(from: "laptop"))
    #expect(topics.classify("badged/ana/host/desktop/sync") == .sync)
    #expect(topics.classify("badged/ana/host/laptop/dnd") == .dndState)
    #expect(topics.classify("badged/ana/dnd/state") == nil)
    #expect(topics.classify("badged/ana/dnd/set") == .dndSet)
    #expect(topics.classify("homeassistant/status") == .homeAssistantStatus)
  }

  @Test(arguments: [
    "badged/ana/ch/m@il/state", "badged/ana/ch/a%2Fb/state", "badged/ana/ch/mail/other", "badged/ana/ch/mail",
    "badged/ana/ch/mail/state/x", "badged/ana/host/laptop/reply", "badged/ana/host/laptop/sync",
    "badged/ana/host/desktop/reply/laptop", "badged/ana/host/laptop/reply/desktop/x", "badged/ana/host/desktop/reply",
    "badged/ana/host/my%20pc/status", "badged/bob/ch/mail/state", "badged/anabel/ch/mail/state", "badged/ana",
    "badged/ana/host/nas/ch/mail", "badged/ana/host/nas/ch/mail/cmd", "badged/ana/host/nas/ch/m@il/state",
    "badged/ana/host/my%20pc/ch/mail/state", "badged/ana/host/nas/ch/mail/state/x", "badged/ana/host/nas",
    "badged/ana/dnd/other", "", "homeassistant/status/x",
  ])
  func topicsThatAreNotOursOrDoNotParseAreNothing(topic: String) {
    #expect(topics.classify(topic) == nil)
  }

  @Test func onlyHostsReplyTopicsTakeAnswers() {
    #expect(topics.replyWriter("badged/ana/host/desktop/reply/laptop") == "laptop")
    #expect(topics.replyWriter("badged/ana/host/nas/reply/laptop") == "laptop")
    #expect(topics.replyWriter("badged/ana/host/laptop/reply") == nil)
    #expect(topics.replyWriter("badged/ana/ch/mail/state") == nil)
    #expect(topics.replyWriter("badged/ana/host/desktop/ch/mail/state") == nil)
    #expect(topics.replyWriter("badged/ana/host/a/b/reply/laptop") == nil)
    #expect(topics.replyWriter("elsewhere/host/desktop/reply/laptop") == nil)
    #expect(topics.replyWriter("badged/ana/host//reply/laptop") == nil)
    #expect(topics.replyWriter("badged/ana/host/desktop/reply/") == nil)
    #expect(topics.replyWriter("badged/ana/host/desktop/reply/my pc") == nil)
  }
}
