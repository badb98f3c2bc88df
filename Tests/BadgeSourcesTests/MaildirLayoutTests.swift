import BadgeCore
import BadgeSources
import Testing

/// `MaildirLayout`: the folders of dovecot's Maildir++, mbsync's Verbatim and a single Maildir,
/// and `folders` selections.
@Suite struct MaildirLayoutTests {
  static func dirs(_ names: String...) -> [ListedName] { names.map { ListedName($0, .directory) } }

  @Test func dovecotsMaildirPlusPlus() {
    let root =
      Self.dirs("new", "cur", "tmp", ".Sent", ".Lists.rust", ".Lists", "..", ".")
      + [ListedName("dovecot-uidlist", .file), ListedName(".subscriptions", .file), ListedName(".Junk", .unknown)]
    #expect(MaildirLayout(root: root) == .maildirPlusPlus)
    let folders = MaildirLayout.plusPlusFolders(root: root)
    #expect(folders.map(\.description) == ["INBOX", "Sent", "Lists/rust", "Lists", "Junk"])
    #expect(folders[0].directory.isEmpty)
    #expect(folders[2].directory == Array(".Lists.rust".utf8))
  }

  @Test func aSingleMaildirIsMaildirPlusPlusWithoutFolders() {
    let root = Self.dirs("cur", "new", "tmp")
    #expect(MaildirLayout(root: root) == .maildirPlusPlus)
    #expect(MaildirLayout.plusPlusFolders(root: root) == [MaildirFolder(name: Array("INBOX".utf8), directory: [])])
    // new and cur as files make no Maildir.
    #expect(MaildirLayout(root: [ListedName("new", .file), ListedName("cur", .directory)]) == .verbatim)
    // d_type unknown: maybe directories.
    #expect(MaildirLayout(root: [ListedName("new", .unknown), ListedName("cur", .unknown)]) == .maildirPlusPlus)
  }

  @Test func mbsyncsVerbatim() {
    let root = Self.dirs("INBOX", "Lists", ".mbsyncstate-dir") + [ListedName(".mbsyncstate", .file)]
    #expect(MaildirLayout(root: root) == .verbatim)
    #expect(MaildirLayout.verbatimChildren(of: [], listing: root) == [Array("INBOX".utf8), Array("Lists".utf8)])
    let inbox = Self.dirs("cur", "new", "tmp")
    #expect(
      MaildirLayout.verbatimFolder(Array("INBOX".utf8), listing: inbox)
        == MaildirFolder(name: Array("INBOX".utf8), directory: Array("INBOX".utf8)))
    #expect(MaildirLayout.verbatimChildren(of: Array("INBOX".utf8), listing: inbox).isEmpty)
    // Lists is no Maildir, but holds one; a folder may hold folders too.
    let lists = Self.dirs("rust")
    #expect(MaildirLayout.verbatimFolder(Array("Lists".utf8), listing: lists) == nil)
    #expect(MaildirLayout.verbatimChildren(of: Array("Lists".utf8), listing: lists) == [Array("Lists/rust".utf8)])
    let rust = Self.dirs("cur", "new", "tmp", "announce")
    #expect(MaildirLayout.verbatimFolder(Array("Lists/rust".utf8), listing: rust)?.description == "Lists/rust")
    #expect(
      MaildirLayout.verbatimChildren(of: Array("Lists/rust".utf8), listing: rust) == [Array("Lists/rust/announce".utf8)]
    )
  }

  @Test func verbatimStopsAtItsDepth() {
    let deep = Array("a/b/c/d/e/f/g".utf8)
    #expect(MaildirLayout.verbatimChildren(of: deep, listing: Self.dirs("h")) == [deep + Array("/h".utf8)])
    #expect(MaildirLayout.verbatimChildren(of: deep + Array("/h".utf8), listing: Self.dirs("i")).isEmpty)
  }

  @Test func oddFolderNames() {
    let root = [ListedName([0x2E, 0x52, 0xE9, 0x2E, 0x78], .directory)] + Self.dirs("new", "cur")
    let folders = MaildirLayout.plusPlusFolders(root: root)
    #expect(folders[1].name == [0x52, 0xE9, 0x2F, 0x78])
    #expect(folders[1].directory == [0x2E, 0x52, 0xE9, 0x2E, 0x78])
  }

  @Test func selections() {
    let inbox = FolderSelection([ByteGlob("INBOX")])
    #expect(inbox.selects(Array("INBOX".utf8)) && !inbox.selects(Array("Sent".utf8)))
    #expect(inbox.isLiteral)
    let lists = FolderSelection([ByteGlob("INBOX"), ByteGlob("Lists/*")])
    #expect(lists.selects(Array("Lists/rust".utf8)) && !lists.selects(Array("Lists".utf8)))
    #expect(!lists.isLiteral)
  }
}
