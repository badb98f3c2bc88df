import BadgeIMAP
import Testing

/// The unseen set kept exact on a selected mailbox: deliveries, another client's flags,
/// expunges with and without QRESYNC, resumes, UIDVALIDITY changes, marking read, liveness.
@Suite struct ImapSessionMailboxTests {
  @Test func greetingToIdle() {
    let session = play({ Dovecot.session() }, Dovecot.toIdle)
    #expect(session.idles)
    #expect(!session.awaitingReply)
    #expect(session.mailboxState == ImapMailboxState(uidValidity: 1_733_440_000, highestModSeq: 5, unseen: [2, 3]))
    #expect(session.capabilities.contains("QRESYNC"))
  }

  @Test func aDeliveryInIdleIsFetchedAndIdleResumes() {
    let session = play(
      { Dovecot.session() },
      Dovecot.toIdle + [
        .server("* 4 EXISTS\r\n* 1 RECENT\r\n", [send("DONE\r\n")]),
        // Dovecot's HIGHESTMODSEQ counts the message not yet fetched: a resume keeps the one before.
        .call(
          { #expect($0.mailboxState?.highestModSeq == 5) },
          []),
        .server(
          "* OK [HIGHESTMODSEQ 6] Highest\r\n* 1 FETCH (UID 1 MODSEQ (7) FLAGS (\\Seen \\Recent))\r\n", []),
        .call({ #expect($0.mailboxState?.highestModSeq == 5) }, []),
        .server("a5 OK Idle completed (0.001 + 1.000 secs).\r\n", [send("a6 UID FETCH 4:* (UID FLAGS)\r\n")]),
        .server(
          "* 4 FETCH (UID 4 MODSEQ (6) FLAGS (\\Recent))\r\na6 OK Fetch completed (0.001 + 0.000 secs).\r\n",
          [.changed(added: [4], removed: []), send("a7 IDLE\r\n")]),
        .server("+ idling\r\n", [.idling]),
      ])
    #expect(session.mailboxState == ImapMailboxState(uidValidity: 1_733_440_000, highestModSeq: 7, unseen: [2, 3, 4]))
  }

  @Test func anotherClientsSeenAndExpungeInIdleCountAtOnce() {
    play(
      { Dovecot.session() },
      Dovecot.toIdle + [
        .server("* 2 FETCH (UID 2 FLAGS (\\Seen) MODSEQ (7))\r\n", [.changed(added: [], removed: [2])]),
        .server("* 2 FETCH (UID 2 FLAGS () MODSEQ (8))\r\n", [.changed(added: [2], removed: [])]),
        .server("* 3 FETCH (UID 3 FLAGS (\\Seen \\Deleted) MODSEQ (9))\r\n", [.changed(added: [], removed: [3])]),
        .server("* VANISHED 2:3\r\n", [.changed(added: [], removed: [2])]),
        // A flag that is not \Seen or \Deleted changes nothing.
        .server("* 1 FETCH (UID 1 FLAGS (\\Seen \\Flagged) MODSEQ (10))\r\n", []),
      ])
  }

  /// Without QRESYNC the sequence numbers are mapped to UIDs: EXPUNGE and FETCH without UID.
  @Test func expungeWithoutQresyncGoesThroughTheSequenceMap() {
    play(
      { Dovecot.session() },
      [
        .server("* OK [CAPABILITY IMAP4rev1 IDLE] ready\r\n", [.needCredential]),
        .call({ $0.credential(Array("secret".utf8)) }, [send("a1 LOGIN \"alice\" \"secret\"\r\n")]),
        .server("a1 OK Logged in\r\n", [send("a2 CAPABILITY\r\n")]),
        .server("* CAPABILITY IMAP4rev1 IDLE\r\na2 OK done\r\n", [send("a3 SELECT \"INBOX\"\r\n")]),
        .server(Dovecot.selected() + "a3 OK [READ-WRITE] Select completed.\r\n", [send("a4 UID SEARCH ALL\r\n")]),
        .server("* SEARCH 10 20 30\r\na4 OK Search completed.\r\n", [send("a5 UID SEARCH UNSEEN UNDELETED\r\n")]),
        .server(
          "* SEARCH 20 30\r\na5 OK Search completed.\r\n",
          [.synced(uidValidity: 1_733_440_000, unseen: [20, 30]), send("a6 IDLE\r\n")]),
        .server("+ idling\r\n", [.idling]),
        .server("* 2 EXPUNGE\r\n", [.changed(added: [], removed: [20])]),
        // Message 2 is UID 30 now.
        .server("* 2 FETCH (FLAGS (\\Seen))\r\n", [.changed(added: [], removed: [30])]),
        .server("* 3 EXISTS\r\n", [send("DONE\r\n")]),
        .server("a6 OK Idle completed.\r\n", [send("a7 FETCH 3:* (UID FLAGS)\r\n")]),
        .server(
          "* 3 FETCH (UID 31 FLAGS ())\r\na7 OK Fetch completed.\r\n",
          [.changed(added: [31], removed: []), send("a8 IDLE\r\n")]),
        .server("+ idling\r\n", [.idling]),
        .server("* 3 FETCH (FLAGS (\\Seen))\r\n* 1 EXPUNGE\r\n", [.changed(added: [], removed: [31])]),
      ])
  }

  @Test func aResumeAppliesVanishedEarlierAndChangedFlags() {
    let resume = ImapMailboxState(uidValidity: 1_733_440_000, highestModSeq: 5, unseen: [2, 3])
    let session = play(
      { Dovecot.session(resume: resume) },
      Array(Dovecot.toIdle.prefix(3)) + [
        .server("* ENABLED QRESYNC\r\na2 OK Enabled.\r\n", [send("a3 SELECT \"INBOX\" (QRESYNC (1733440000 5))\r\n")]),
        .server(
          Dovecot.selected(uidNext: 6, modSeq: 9) + "* VANISHED (EARLIER) 3\r\n"
            + "* 1 FETCH (UID 2 FLAGS (\\Seen) MODSEQ (8))\r\n* 2 FETCH (UID 5 FLAGS () MODSEQ (9))\r\n"
            + "a3 OK [READ-WRITE] Select completed.\r\n",
          [.synced(uidValidity: 1_733_440_000, unseen: [5]), send("a4 IDLE\r\n")]),
      ])
    #expect(session.mailboxState == ImapMailboxState(uidValidity: 1_733_440_000, highestModSeq: 9, unseen: [5]))
  }

  @Test func aChangedUidValidityRecounts() {
    let resume = ImapMailboxState(uidValidity: 17, highestModSeq: 5, unseen: [2, 3, 99])
    play(
      { Dovecot.session(resume: resume) },
      Array(Dovecot.toIdle.prefix(3)) + [
        .server("* ENABLED QRESYNC\r\na2 OK Enabled.\r\n", [send("a3 SELECT \"INBOX\" (QRESYNC (17 5))\r\n")]),
        .server(
          Dovecot.selected() + "a3 OK [READ-WRITE] Select completed.\r\n",
          [send("a4 UID SEARCH RETURN (ALL) UNSEEN UNDELETED\r\n")]),
        .server(
          "* ESEARCH (TAG \"a4\") UID ALL 1\r\na4 OK Search completed.\r\n",
          [.synced(uidValidity: 1_733_440_000, unseen: [1]), send("a5 IDLE\r\n")]),
      ])
  }

  @Test func markReadStoresOnlyUnseenUidsBetweenIdles() {
    let session = play(
      { Dovecot.session() },
      Dovecot.toIdle + [
        .call({ $0.markRead([2, 9]) }, [send("DONE\r\n")]),
        .server("a5 OK Idle completed.\r\n", [send("a6 UID STORE 2 +FLAGS.SILENT (\\Seen)\r\n")]),
        // Dovecot answers .SILENT with the new MODSEQ alone (CONDSTORE): no FLAGS, no change of itself.
        .server(
          "* 1 FETCH (UID 2 MODSEQ (10))\r\na6 OK Store completed (0.001 + 0.000 secs).\r\n",
          [.marked([2]), .changed(added: [], removed: [2]), send("a7 IDLE\r\n")]),
        .server("+ idling\r\n", [.idling]),
        .call({ $0.markRead([1, 2]) }, [.marked([])]),
      ])
    #expect(session.mailboxState == ImapMailboxState(uidValidity: 1_733_440_000, highestModSeq: 10, unseen: [3]))
  }

  @Test func checkLeavesIdleForANoop() {
    play(
      { Dovecot.session() },
      Dovecot.toIdle + [
        .call({ $0.check() }, [send("DONE\r\n")]),
        .server("a5 OK Idle completed.\r\n", [send("a6 NOOP\r\n")]),
        .server("a6 OK NOOP completed.\r\n", [send("a7 IDLE\r\n")]),
      ])
  }

  @Test func withoutIdleCheckIsANoop() {
    let session = play(
      { Dovecot.session() },
      [
        .server("* OK [CAPABILITY IMAP4rev1] ready\r\n", [.needCredential]),
        .call({ $0.credential(Array("secret".utf8)) }, [send("a1 LOGIN \"alice\" \"secret\"\r\n")]),
        .server("a1 OK [CAPABILITY IMAP4rev1] Logged in\r\n", [send("a2 SELECT \"INBOX\"\r\n")]),
        .server(Dovecot.selected() + "a2 OK Select completed.\r\n", [send("a3 UID SEARCH ALL\r\n")]),
        .server("* SEARCH 1 2 3\r\na3 OK Search completed.\r\n", [send("a4 UID SEARCH UNSEEN UNDELETED\r\n")]),
        .server("* SEARCH\r\na4 OK Search completed.\r\n", [.synced(uidValidity: 1_733_440_000, unseen: [])]),
        .call({ $0.check() }, [send("a5 NOOP\r\n")]),
        .server("* 4 EXISTS\r\na5 OK NOOP completed.\r\n", [send("a6 FETCH 4:* (UID FLAGS)\r\n")]),
        .server("* 4 FETCH (UID 4 FLAGS ())\r\na6 OK Fetch completed.\r\n", [.changed(added: [4], removed: [])]),
      ])
    #expect(!session.idles)
    #expect(!session.awaitingReply)
  }

  @Test func byeMidCommandEndsTheSession() {
    play(
      { Dovecot.session() },
      Array(Dovecot.toIdle.prefix(4)) + [
        .server(
          "* 3 EXISTS\r\n* BYE Server shutting down.\r\n", [.failed(.bye("Server shutting down."))]),
        .server("a3 OK Select completed.\r\n", []),
      ])
  }

  @Test func aClosedConnectionIsAFailureExceptAfterLogout() {
    var session = Dovecot.session()
    session.connected()
    session.closed()
    #expect(session.takeOutput() == [.failed(.bye("connection closed"))])
  }

  @Test func unknownResponsesAreIgnored() {
    play(
      { Dovecot.session() },
      Dovecot.toIdle + [
        .server(
          "* XFOO bar (baz\r\n* 3 XTHING\r\n* ID (\"name\" \"Dovecot\")\r\n* OK [XYZ 1] still here\r\n"
            + "* NO [ALERT] disk almost full\r\n* 2 RECENT\r\n* STATUS INBOX (MESSAGES 3)\r\n", []),
        .server("* 3 FETCH (UID 3 FLAGS (\\Seen))\r\n", [.changed(added: [], removed: [3])]),
      ])
  }

  @Test func aHugeLiteralEndsTheSessionAtItsHeader() {
    play(
      { Dovecot.session() },
      Dovecot.toIdle + [
        .server(
          "* 3 FETCH (UID 3 BODY[] {104857600}\r\n",
          [.failed(.violation("a literal of 104857600 bytes (at most 65536)"))])
      ])
  }
}
