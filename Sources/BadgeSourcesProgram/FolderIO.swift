import BadgeSources
import BadgeSystem
import Glibc

/// The sources' listings and renames, done at once on the loop: a listing is `getdents64`
/// with no `stat` (`Directory.list`), a rename `renameat2(RENAME_NOREPLACE)`, so marking a
/// message read never replaces another.
enum FolderIO {
  /// The names in `path` with their types, or why it cannot be listed.
  static func list(_ path: [UInt8]) -> Result<[ListedName], ListingFailure> {
    do throws(Errno) {
      return .success(try Directory.list(path).map { ListedName($0.name, entryType($0.kind)) })
    } catch {
      switch error.rawValue {
      case ENOENT: return .failure(.missing)
      case ENOTDIR: return .failure(.notADirectory)
      default: return .failure(.failed(error.description))
      }
    }
  }

  /// What a source makes of an entry's type: a link may lead to a folder, so its listing tells.
  static func entryType(_ kind: DirectoryEntry.Kind) -> ListedName.EntryType {
    switch kind {
    case .folder: return .directory
    case .file, .other: return .file
    case .symbolicLink, .unknown: return .unknown
    }
  }

  /// Renames `from` to `to` unless `to` exists; what went wrong, for the journal, or `nil`
  /// (a message moved or removed meanwhile is no fault: another client got there first).
  static func rename(from: [UInt8], to: [UInt8]) -> String? {
    do throws(Errno) {
      switch try Directory.renameNoReplace(from: from, to: to) {
      case .renamed, .sourceMissing: return nil
      case .targetExists:
        return "Not renaming \(text(from)): \(text(to)) exists."
      }
    } catch {
      return "Cannot rename \(text(from)) to \(text(to)): \(error)."
    }
  }

  /// A path for a log line (bytes that are not UTF-8 shown as U+FFFD, as the sources do).
  static func text(_ path: [UInt8]) -> String { String(decoding: path, as: UTF8.self) }
}
