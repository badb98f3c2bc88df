import BadgeCore

/// One name a directory listing gave, and what `d_type` said it is.
public struct ListedName: Hashable, Sendable {
  public var name: [UInt8]
  public var type: EntryType

  public init(_ name: [UInt8], _ type: EntryType) {
    self.name = name
    self.type = type
  }

  public init(_ name: String, _ type: EntryType) { self.init(Array(name.utf8), type) }

  /// `d_type`, reduced to what a source decides on. `unknown` (file systems that do not fill
  /// it in) is taken as possibly a directory: listing it tells.
  public enum EntryType: Hashable, Sendable {
    case directory
    case file
    case unknown
  }

  /// Whether the name may be a directory.
  public var mayBeDirectory: Bool { type != .file }
}

/// One folder of a maildir source: its name (levels separated by `/`) and its directory,
/// relative to the root (empty for the root itself).
public struct MaildirFolder: Hashable, Sendable, CustomStringConvertible {
  public var name: [UInt8]
  public var directory: [UInt8]

  public init(name: [UInt8], directory: [UInt8]) {
    self.name = name
    self.directory = directory
  }

  public var description: String { String(decoding: name, as: UTF8.self) }

  /// The name of a root's own messages.
  public static let inboxName = Array("INBOX".utf8)
}

/// How the folders under a maildir source's `path` are laid out, and their names.
///
/// - **Maildir++** (dovecot's default, mbsync's `SubFolders Maildir++`): the root is a Maildir
///   (its `new/` and `cur/` are `INBOX`) and each folder is a directory `.A.B` beside them. A
///   single Maildir is the same with no folders, which a later `.A` turns into one.
/// - **Verbatim** (mbsync's `SubFolders Verbatim`): the root is no Maildir; every directory
///   under it that holds `new/` and `cur/` is a folder, nested ones too (`Lists/rust`), and a
///   folder may hold others.
///
/// Folder names use `/` between levels in both layouts (Maildir++ `.Lists.rust` is
/// `Lists/rust`, as Verbatim's `Lists/rust` is), so one `folders = Lists/*` means the same
/// under both, and a switch of mbsync's `SubFolders` keeps the channels.
public enum MaildirLayout: Hashable, Sendable {
  case maildirPlusPlus
  case verbatim

  /// The layout of a root from its listing: Maildir++ when it holds both `new` and `cur`.
  public init(root: [ListedName]) {
    self = MaildirLayout.isMaildir(root) ? .maildirPlusPlus : .verbatim
  }

  /// Whether a directory listing is a Maildir's: `new` and `cur` in it, as directories or maybe.
  public static func isMaildir(_ listing: [ListedName]) -> Bool {
    let directories = Set(listing.filter(\.mayBeDirectory).map(\.name))
    return directories.contains(Array("new".utf8)) && directories.contains(Array("cur".utf8))
  }

  /// How deep a Verbatim layout's folders are looked for below the root.
  public static let maxDepth = 8

  /// The folders a Maildir++ root's listing shows: `INBOX` (the root) and every `.A.B` directory.
  public static func plusPlusFolders(root: [ListedName]) -> [MaildirFolder] {
    var folders = [MaildirFolder(name: MaildirFolder.inboxName, directory: [])]
    for entry in root where entry.mayBeDirectory && entry.name.first == UInt8(ascii: ".") {
      let name = entry.name.dropFirst()
      guard !name.isEmpty, name != [UInt8(ascii: ".")] else { continue }
      let levels = name.map { $0 == UInt8(ascii: ".") ? UInt8(ascii: "/") : $0 }
      folders.append(MaildirFolder(name: levels, directory: entry.name))
    }
    return folders
  }

  /// Under a Verbatim root, the directories of `directory`'s listing to look into for folders
  /// (each to be listed in turn): those not hidden and not a Maildir's own `new`, `cur`, `tmp`.
  /// None past `maxDepth`.
  public static func verbatimChildren(of directory: [UInt8], listing: [ListedName]) -> [[UInt8]] {
    let depth = directory.isEmpty ? 0 : directory.count(where: { $0 == UInt8(ascii: "/") }) + 1
    guard depth < maxDepth else { return [] }
    let own = isMaildir(listing) ? maildirParts : []
    return listing.compactMap { entry in
      guard entry.mayBeDirectory, entry.name.first != UInt8(ascii: "."), !own.contains(entry.name) else { return nil }
      return directory.isEmpty ? entry.name : directory + [UInt8(ascii: "/")] + entry.name
    }
  }

  /// The folder a Verbatim directory is, from its listing: `nil` when it is no Maildir.
  public static func verbatimFolder(_ directory: [UInt8], listing: [ListedName]) -> MaildirFolder? {
    guard !directory.isEmpty, isMaildir(listing) else { return nil }
    return MaildirFolder(name: directory, directory: directory)
  }

  static let maildirParts: Set<[UInt8]> = [Array("new".utf8), Array("cur".utf8), Array("tmp".utf8)]
}

/// `folders`: which folders a maildir source counts.
public struct FolderSelection: Hashable, Sendable {
  public var globs: [ByteGlob]

  public init(_ globs: [ByteGlob]) { self.globs = globs }

  /// Whether the folder named `name` is counted.
  public func selects(_ name: [UInt8]) -> Bool { globs.contains { $0.matches(name) } }

  /// Whether the selection names folders one by one (no wildcard): then only those folders'
  /// directories need watching, not every directory where a folder might appear.
  public var isLiteral: Bool { globs.allSatisfy(\.isLiteral) }
}
