import BadgeConfig
import BadgeCore
import BadgeSources
import Testing

/// `SourcesConfig.parse`'s refusals: every fault with its exact `file:line: reason`, the first
/// in file order, and the rules between sources.
@Suite struct SourcesConfigRefusalTests {
  static let refusals: [(String, String)] = [
    // The section.
    (
      "[source.a b]\nkind = exec",
      "badged.conf:2: Invalid source name 'a b' in [source.a b]; \(SourcesConfig.namingRule)"
    ),
    (
      "[source.]\nkind = exec",
      "badged.conf:2: Invalid source name '' in [source.]; names are 1-64 characters from A-Z a-z 0-9 . _ -"
    ),
    (
      "[source.\(String(repeating: "a", count: 65))]\nkind = exec",
      "badged.conf:2: Invalid source name '\(String(repeating: "a", count: 65))' in "
        + "[source.\(String(repeating: "a", count: 65))]; names are 1-64 characters from A-Z a-z 0-9 . _ -"
    ),
    (
      "[source.a:b]\nkind = exec",
      "badged.conf:2: Invalid source name 'a:b' in [source.a:b]; \(SourcesConfig.namingRule)"
    ),
    (
      "[source.mail]\npath = ~/Mail",
      "badged.conf:2: [source.mail] has no kind; write kind = maildir, notmuch, exec, files or imap"
    ),
    (
      "[source.mail]\nkind = pop3",
      "badged.conf:2: Unknown kind 'pop3' in [source.mail]; expected one of maildir, notmuch, exec, files, imap"
    ),
    // Keys.
    (
      "[source.mail]\nkind = maildir\npath = ~/Mail\nfodlers = INBOX",
      "badged.conf:4: Unknown key 'fodlers' in [source.mail]; expected one of kind, channel, on_clear, coalesce_ms, "
        + "path, folders"
    ),
    (
      "[source.mail]\nkind = maildir\ncommand = true\npath = ~/Mail",
      "badged.conf:3: Key 'command' in [source.mail] is for exec sources, not maildir ones; expected one of kind, "
        + "channel, on_clear, coalesce_ms, path, folders"
    ),
    (
      "[source.x]\nkind = exec\ncommand = true\nquery.a = tag:a",
      "badged.conf:4: Key 'query.a' in [source.x] is for notmuch sources, not exec ones; expected one of kind, "
        + "channel, on_clear, coalesce_ms, command, interval_s, follow, timeout_s"
    ),
    (
      "[source.x]\nkind = notmuch\nmatch = *",
      "badged.conf:3: Key 'match' in [source.x] is for files sources, not notmuch ones; expected one of kind, "
        + "channel, on_clear, coalesce_ms, database, profile, query, exclude, query.<suffix>"
    ),
    (
      "[source.x]\nkind = files\npath = /x\nfolders = *",
      "badged.conf:4: Key 'folders' in [source.x] is for maildir sources, not files ones; expected one of kind, "
        + "channel, on_clear, coalesce_ms, path, match, recursive, hidden"
    ),
    // Missing keys, at the section's first line.
    ("\n[source.mail]\nkind = maildir", "badged.conf:3: [source.mail] has no path; a maildir source needs one"),
    ("[source.q]\nkind = files", "badged.conf:2: [source.q] has no path; a files source needs one"),
    ("[source.u]\nkind = exec\ninterval_s = 5", "badged.conf:2: [source.u] has no command; an exec source needs one"),
    (
      "[source._x]\nkind = exec\ncommand = true",
      "badged.conf:2: [source._x] names no channel and its name is none (\(ChannelName.namingRule)); write channel = …"
    ),
    // Values every kind takes.
    (
      "[source.x]\nkind = exec\ncommand = true\nchannel = a b",
      "badged.conf:4: Invalid value 'a b' for channel: \(ChannelName.namingRule)"
    ),
    (
      "[source.x]\nkind = exec\ncommand = true\nchannel = x:{folder}",
      "badged.conf:4: Invalid value 'x:{folder}' for channel: only a maildir or an imap source makes a channel per "
        + "folder"
    ),
    (
      "[source.x]\nkind = exec\ncommand = true\non_clear = mark-read",
      "badged.conf:4: Invalid value 'mark-read' for on_clear: an exec source has nothing to mark read; expected 'seen'"
    ),
    (
      "[source.x]\nkind = files\npath = /x\non_clear = mark-read",
      "badged.conf:4: Invalid value 'mark-read' for on_clear: a files source has nothing to mark read; expected 'seen'"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\non_clear = read",
      "badged.conf:4: Invalid value 'read' for on_clear: expected 'seen' or 'mark-read'"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\ncoalesce_ms = 10001",
      "badged.conf:4: Invalid value '10001' for coalesce_ms: expected a number from 0 to 10000"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\ncoalesce_ms = -1",
      "badged.conf:4: Invalid value '-1' for coalesce_ms: expected a whole number"
    ),
    // maildir.
    (
      "[source.x]\nkind = maildir\npath = Mail",
      "badged.conf:3: Invalid value 'Mail' for path: expected an absolute path or one starting with ~/"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\nfolders = ,",
      "badged.conf:4: Invalid value ',' for folders: expected folder names or globs separated by spaces or commas"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\nchannel = mail",
      nil ?? "accepted"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\nchannel = mail:{box}",
      "badged.conf:4: Invalid value 'mail:{box}' for channel: a template holds {folder}, as in mail:{folder}"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\nchannel = {folder}:{folder}",
      "badged.conf:4: Invalid value '{folder}:{folder}' for channel: a template holds {folder} once"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\nchannel = {folder}",
      "badged.conf:4: Invalid value '{folder}' for channel: a template starts with a letter or digit, as channel "
        + "names do (mail:{folder})"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\nchannel = mail/{folder}",
      "badged.conf:4: Invalid value 'mail/{folder}' for channel: around {folder} only A-Z a-z 0-9 . _ - : may stand"
    ),
    (
      "[source.x]\nkind = maildir\npath = /x\nchannel = \(String(repeating: "m", count: 41)){folder}",
      "badged.conf:4: Invalid value '\(String(repeating: "m", count: 41)){folder}' for channel: at most 40 characters "
        + "may stand around {folder}"
    ),
    // notmuch.
    (
      "[source.x]\nkind = notmuch\ndatabase = .mail",
      "badged.conf:3: Invalid value '.mail' for database: expected an absolute path or one starting with ~/"
    ),
    (
      "[source.x]\nkind = notmuch\nprofile = a/b",
      "badged.conf:3: Invalid value 'a/b' for profile: expected a profile name: 1-64 characters, no /"
    ),
    ("[source.x]\nkind = notmuch\nquery =", "badged.conf:3: Invalid value '' for query: expected a notmuch query"),
    (
      "[source.x]\nkind = notmuch\nquery.a =  ", "badged.conf:3: Invalid value '' for query.a: expected a notmuch query"
    ),
    (
      "[source.x]\nkind = notmuch\nexclude = maybe",
      "badged.conf:3: Invalid value 'maybe' for exclude: expected yes or no"
    ),
    (
      "[source.x]\nkind = notmuch\nquery.a b = tag:a",
      "badged.conf:3: Invalid key 'query.a b' in [source.x]: its channel 'x:a b' is no channel name "
        + "(\(ChannelName.namingRule))"
    ),
    (
      "[source.x]\nkind = notmuch\nquery. = tag:a",
      "badged.conf:3: Invalid key 'query.' in [source.x]: its suffix is empty"
    ),
    (
      "[source.x]\nkind = notmuch\nquery.\(String(repeating: "q", count: 63)) = tag:a\nchannel = mail",
      "badged.conf:3: Invalid key 'query.\(String(repeating: "q", count: 63))' in [source.x]: its channel "
        + "'mail:\(String(repeating: "q", count: 63))' is no channel name (\(ChannelName.namingRule))"
    ),
    // exec.
    ("[source.x]\nkind = exec\ncommand =", "badged.conf:3: Invalid value '' for command: expected a command"),
    (
      "[source.x]\nkind = exec\ncommand = a 'b",
      "badged.conf:3: Invalid value 'a 'b' for command: a ' quote is not closed"
    ),
    (
      "[source.x]\nkind = exec\ncommand = true\ninterval_s = 0",
      "badged.conf:4: Invalid value '0' for interval_s: expected a number from 1 to 86400"
    ),
    (
      "[source.x]\nkind = exec\ncommand = true\ninterval_s = 86401",
      "badged.conf:4: Invalid value '86401' for interval_s: expected a number from 1 to 86400"
    ),
    (
      "[source.x]\nkind = exec\ncommand = true\ntimeout_s = 3601",
      "badged.conf:4: Invalid value '3601' for timeout_s: expected a number from 1 to 3600"
    ),
    (
      "[source.x]\nkind = exec\ncommand = true\nfollow = always",
      "badged.conf:4: Invalid value 'always' for follow: expected yes or no"
    ),
    (
      "[source.x]\nkind = exec\ninterval_s = 5\ncommand = true\nfollow = yes",
      "badged.conf:5: 'interval_s' and 'follow = yes' cannot go together (lines 3 and 5): a followed command keeps "
        + "running and prints a count a line"
    ),
    (
      "[source.x]\nkind = exec\nfollow = yes\ncommand = true\ntimeout_s = 5",
      "badged.conf:5: 'timeout_s' and 'follow = yes' cannot go together (lines 3 and 5): a followed command keeps "
        + "running and prints a count a line"
    ),
    // files.
    (
      "[source.x]\nkind = files\npath = ~x",
      "badged.conf:3: Invalid value '~x' for path: expected an absolute path or one starting with ~/"
    ),
    (
      "[source.x]\nkind = files\npath = /x\nmatch = a/*.part",
      "badged.conf:4: Invalid value 'a/*.part' for match: 'a/*.part' holds a /; match globs are matched against a "
        + "file's own name"
    ),
    (
      "[source.x]\nkind = files\npath = /x\nmatch =",
      "badged.conf:4: Invalid value '' for match: expected globs separated by spaces or commas"
    ),
    (
      "[source.x]\nkind = files\npath = /x\nrecursive = 2",
      "badged.conf:4: Invalid value '2' for recursive: expected yes or no"
    ),
    (
      "[source.x]\nkind = files\npath = /x\nhidden = -",
      "badged.conf:4: Invalid value '-' for hidden: expected yes or no"
    ),
  ]

  @Test(arguments: refusals) func eachFaultHasItsMessage(text: String, message: String) {
    #expect(refusal(text) == (message == "accepted" ? nil : message))
  }

  @Test func theFirstFaultInFileOrderIsTheOneReported() {
    #expect(
      refusal(
        "[source.a]\nkind = exec\n[source.b]\nkind = maildir\npath = /b\nbad = 1\n[source.a]\ncommand = true\nfollow = 2"
      )
        == "badged.conf:6: Unknown key 'bad' in [source.b]; expected one of kind, channel, on_clear, coalesce_ms, "
        + "path, folders")
    #expect(
      refusal("[source.a]\nkind = exec\ncoalesce_ms = x\ncommand = 'a")
        == "badged.conf:3: Invalid value 'x' for coalesce_ms: expected a whole number")
    // A missing key sits at the section's first line, before any of its values.
    #expect(
      refusal("[source.a]\nkind = maildir\ncoalesce_ms = x")
        == "badged.conf:2: [source.a] has no path; a maildir source needs one")
  }

  @Test func aChannelHasOneSource() {
    #expect(
      refusal("[source.a]\nkind = exec\ncommand = true\nchannel = mail\n[source.mail]\nkind = maildir\npath = /m")
        == "badged.conf:6: Channel 'mail' of [source.mail] is already [source.a]'s (badged.conf:4); a channel has one "
        + "source")
    #expect(
      refusal(
        "[source.nm]\nkind = notmuch\nquery.lists = tag:l\n[source.b]\nkind = exec\ncommand = true\nchannel = nm:lists")
        == "badged.conf:7: Channel 'nm:lists' of [source.b] is already [source.nm]'s (badged.conf:3); a channel has one "
        + "source")
    #expect(
      refusal("[source.nm]\nkind = notmuch\n[source.b]\nkind = exec\ncommand = true\nchannel = nm")
        == "badged.conf:6: Channel 'nm' of [source.b] is already [source.nm]'s (badged.conf:2); a channel has one "
        + "source")
  }

  @Test func aTemplateOwnsWhatItCanMake() {
    #expect(
      refusal(
        "[source.m]\nkind = maildir\npath = /m\nchannel = mail:{folder}\n[source.x]\nkind = exec\ncommand = true\nchannel = mail:INBOX"
      )
        == "badged.conf:8: Channel 'mail:INBOX' of [source.x] is one [source.m]'s template 'mail:{folder}' makes "
        + "(badged.conf:4); a channel has one source")
    #expect(
      refusal(
        "[source.x]\nkind = exec\ncommand = true\nchannel = mail:INBOX\n[source.m]\nkind = maildir\npath = /m\nchannel = mail:{folder}"
      )
        == "badged.conf:8: Template 'mail:{folder}' of [source.m] makes channel 'mail:INBOX' of [source.x] "
        + "(badged.conf:4); a channel has one source")
    #expect(
      refusal(
        "[source.m]\nkind = maildir\npath = /m\nchannel = m{folder}\n[source.w]\nkind = maildir\npath = /w\nchannel = mail:{folder}"
      )
        == "badged.conf:8: Template 'mail:{folder}' of [source.w] can make the channels of [source.m]'s 'm{folder}' "
        + "(badged.conf:4); a channel has one source")
    // A fixed channel the template cannot make, and templates apart, are fine.
    #expect(
      refusal(
        "[source.m]\nkind = maildir\npath = /m\nchannel = mail:{folder}\n[source.w]\nkind = maildir\npath = /w\n"
          + "channel = work:{folder}\n[source.x]\nkind = exec\ncommand = true\nchannel = mail") == nil)
  }

  @Test func atMost256Sources() {
    var text = ""
    for index in 1...257 { text += "[source.s\(index)]\nkind = exec\ncommand = true\n" }
    #expect(refusal(text) == "badged.conf:770: More than 256 sources: [source.s257] is source 257")
    #expect(refusal(String(text.dropLast(39))) == nil)
  }
}
