import BadgeSystem

/// What a power cut can leave of one folder, rebuilt from a trace of storage operations
/// (`StorageTrace.Event`), in the spirit of ALICE and LazyFS.
///
/// The model keeps, for each file (an inode: a rename moves it, it does not copy it), the bytes
/// the running program sees and the bytes known to be on disk, and for the folder the names
/// the program sees and the names on disk. Only `flush` (fdatasync) makes a file's bytes
/// durable, and only `flushFolder` (fsync of the folder) makes names durable: creations,
/// renames and removals before it may all be undone.
struct PowerCutModel {
  /// The files of a crash state, by name (no folder part), with their bytes.
  typealias Files = [String: [UInt8]]

  private struct Inode {
    var seen: [UInt8] = []
    var durable: [UInt8] = []
    /// Whether the file was cut (truncated) since its last flush: its unflushed change is then
    /// not a write a power cut can tear.
    var cut = false
  }

  let folder: String
  private var inodes: [Inode] = []
  private var names: [String: Int] = [:]
  private var durableNames: [String: Int] = [:]

  /// The folder as it is on disk before the trace starts: every file whole and durable.
  init(folder: String, existing: Files) {
    self.folder = folder
    for (name, bytes) in existing.sorted(by: { $0.key < $1.key }) {
      inodes.append(Inode(seen: bytes, durable: bytes))
      names[name] = inodes.count - 1
    }
    durableNames = names
  }

  /// The name of `path` inside the folder, or nil for a path elsewhere.
  private func name(_ path: String) -> String? {
    guard path.hasPrefix(folder + "/") else { return nil }
    return String(path.dropFirst(folder.count + 1))
  }

  mutating func apply(_ event: StorageTrace.Event) {
    switch event {
    case .open(let path, let truncate):
      guard let name = name(path) else { return }
      if let inode = names[name] {
        if truncate {
          inodes[inode].seen = []
          inodes[inode].cut = true
        }
      } else {
        inodes.append(Inode())
        names[name] = inodes.count - 1
      }
    case .write(let path, let offset, let bytes):
      guard let name = name(path), let inode = names[name] else { return }
      let end = offset + bytes.count
      if inodes[inode].seen.count < end {
        inodes[inode].seen += [UInt8](repeating: 0, count: end - inodes[inode].seen.count)
      }
      inodes[inode].seen.replaceSubrange(offset..<end, with: bytes)
    case .flush(let path):
      guard let name = name(path), let inode = names[name] else { return }
      inodes[inode].durable = inodes[inode].seen
      inodes[inode].cut = false
    case .truncate(let path, let length):
      guard let name = name(path), let inode = names[name] else { return }
      inodes[inode].seen = Array(inodes[inode].seen.prefix(length))
      inodes[inode].cut = true
    case .rename(let from, let to):
      guard let source = name(from), let target = name(to), let inode = names[source] else { return }
      names[source] = nil
      names[target] = inode
    case .remove(let path):
      guard let name = name(path) else { return }
      names[name] = nil
    case .flushFolder(let path):
      if path == folder { durableNames = names }
    }
  }

  /// How much of a file's unflushed bytes reached the disk. The unflushed bytes run from the
  /// first byte where the file as seen differs from the file on disk to the last (or to the
  /// end of the file as seen, when it grew): bytes appended, or written into room made ahead.
  enum Tear: CaseIterable {
    /// None: the file holds what was last flushed.
    case nothing
    /// The first half of the unflushed bytes.
    case half
    /// All but the last byte (a record cut at its end).
    case allButOne
    /// The file's new length, but zeros where the data never arrived.
    case zeros
    /// All of them.
    case everything
  }

  /// The files a power cut now could leave: with the folder's names as flushed or as seen (an
  /// unflushed rename undone or made), and each file's unflushed bytes torn as `tear` says.
  /// A file whose unflushed change includes a truncation is either as flushed or as seen.
  func crashState(durableFolder: Bool, tear: Tear) -> Files {
    var files: Files = [:]
    for (name, index) in durableFolder ? durableNames : names {
      let inode = inodes[index]
      guard !inode.cut else {
        files[name] = tear == .nothing ? inode.durable : inode.seen
        continue
      }
      let (seen, durable) = (inode.seen, inode.durable)
      var start = 0
      while start < min(seen.count, durable.count) && seen[start] == durable[start] { start += 1 }
      var end = seen.count
      if end <= durable.count {
        while end > start && seen[end - 1] == durable[end - 1] { end -= 1 }
      }
      /// The file on disk with the unflushed bytes' first `count` arrived (or zeros for all).
      func torn(_ count: Int, zeros: Bool = false) -> [UInt8] {
        var file = durable
        let arrived = zeros ? [UInt8](repeating: 0, count: end - start) : Array(seen[start..<start + count])
        if file.count < start + arrived.count {
          file += [UInt8](repeating: 0, count: start + arrived.count - file.count)
        }
        file.replaceSubrange(start..<start + arrived.count, with: arrived)
        return file
      }
      switch tear {
      case .nothing: files[name] = durable
      case .half: files[name] = torn((end - start) / 2)
      case .allButOne: files[name] = torn(max(0, end - start - 1))
      case .zeros: files[name] = torn(0, zeros: true)
      case .everything: files[name] = seen
      }
    }
    return files
  }

  /// Every distinct crash state of this point.
  func crashStates() -> [Files] {
    var states: [Files] = []
    for durableFolder in [true, false] {
      for tear in Tear.allCases {
        let state = crashState(durableFolder: durableFolder, tear: tear)
        if !states.contains(state) { states.append(state) }
      }
    }
    return states
  }
}
