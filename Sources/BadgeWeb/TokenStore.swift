import Glibc

/// The tokens file shared by badged-web and `badgectl web` (docs/WEB.md, "Tokens").
///
/// Every change (a code issued or redeemed, a token issued or revoked) reads the file afresh
/// and rewrites it whole (a temporary file, flushed, renamed over it) under `flock` on
/// `<file>.lock`, so two programs never lose each other's lines and a reader never sees half
/// a file. Reading needs no lock: `authenticate` re-reads the file when one `stat` says it
/// changed (inode, size, modification time), so a revoke takes effect at the next request.
public struct TokenStore: Sendable {
  /// The file; its folder is made (0700) on the first write, the file is 0600.
  public let path: String
  /// What the file held at its last read, and the identity it had then.
  private var cached = TokenFile()
  private var identity: FileIdentity?

  /// How long a code stays valid: 10 minutes.
  public static let codeLifetime: Int64 = 600

  /// Why the file could not be read or written.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// A token just issued: its secret (shown once) and what it may do.
  public struct IssuedToken: Sendable, Equatable {
    public var token: String
    public var access: TokenAccess
    public var name: String

    public init(token: String, access: TokenAccess, name: String) {
      self.token = token
      self.access = access
      self.name = name
    }
  }

  public init(path: String) { self.path = path }

  /// Writes a new one-time code for a token of `level` called `name`, valid 10 minutes from
  /// `now` (Unix seconds), and returns it. Expired codes are dropped on the way.
  public mutating func issueCode(level: TokenAccess.Level, name: String, now: Int64) throws(Failure) -> String {
    let code = WebSecret.newCode()
    try change(now: now) { file in
      file.lines.append(
        .code(
          TokenFile.Code(
            hash: WebSecret.sha256Hex(code), level: level, expires: now + TokenStore.codeLifetime,
            name: TokenFile.cleanName(name))))
      return ()
    }
    return code
  }

  /// Exchanges a code for a new token: `nil` when the code is unknown, used or expired. The
  /// code is removed in the same rewrite that adds the token, under the lock, so it is used
  /// once.
  public mutating func redeem(code: String, now: Int64) throws(Failure) -> IssuedToken? {
    guard WebSecret.isWellFormed(code) else { return nil }
    let hash = WebSecret.sha256Hex(code)
    return try change(now: now) { file -> IssuedToken? in
      guard let index = file.lines.firstIndex(where: { if case .code(let c) = $0 { c.hash == hash } else { false } }),
        case .code(let found) = file.lines[index]
      else { return nil }
      file.lines.remove(at: index)
      guard found.expires > now else { return nil }
      return TokenStore.addToken(level: found.level, name: found.name, now: now, to: &file)
    }
  }

  /// Writes a new token of `level` called `name` (for scripts: `badgectl web token`).
  public mutating func issueToken(level: TokenAccess.Level, name: String, now: Int64) throws(Failure) -> IssuedToken {
    try change(now: now) { file in
      TokenStore.addToken(level: level, name: TokenFile.cleanName(name), now: now, to: &file)
    }
  }

  /// What `token` may do, or `nil` for one the file does not hold (or a file that cannot be
  /// read: nothing is let in). Re-reads the file first when it changed.
  public mutating func authenticate(_ token: String) -> TokenAccess? {
    guard WebSecret.isWellFormed(token) else { return nil }
    reloadIfChanged()
    let hash = WebSecret.sha256Hex(token)
    guard let found = cached.tokens.first(where: { $0.hash == hash }) else { return nil }
    return TokenAccess(id: found.id, level: found.level)
  }

  /// Whether the token with `id` is still in the file (an open stream of a revoked one ends).
  public mutating func isValid(id: String) -> Bool {
    reloadIfChanged()
    return cached.tokens.contains { $0.id == id }
  }

  /// The tokens, in the order they were issued.
  public mutating func list() throws(Failure) -> [TokenFile.Token] {
    cached = try read()
    return cached.tokens
  }

  /// Removes the token with `id`; `false` when there is none.
  public mutating func revoke(id: String) throws(Failure) -> Bool {
    try change(now: nil) { file in
      let before = file.lines.count
      file.lines.removeAll { if case .token(let t) = $0 { t.id == id } else { false } }
      return file.lines.count != before
    }
  }

  // MARK: - The file

  /// A token added to `file`, with an id no other token has.
  private static func addToken(
    level: TokenAccess.Level, name: String, now: Int64, to file: inout TokenFile
  ) -> IssuedToken {
    var token = WebSecret.newToken()
    var hash = WebSecret.sha256Hex(token)
    while file.tokens.contains(where: { $0.id == hash.prefix(8) }) {
      token = WebSecret.newToken()
      hash = WebSecret.sha256Hex(token)
    }
    let id = String(hash.prefix(8))
    file.lines.append(.token(TokenFile.Token(id: id, level: level, hash: hash, created: now, name: name)))
    return IssuedToken(token: token, access: TokenAccess(id: id, level: level), name: name)
  }

  /// Reads the file under the lock, lets `body` change it, drops codes expired at `now` (when
  /// given), and rewrites it.
  private mutating func change<Result>(
    now: Int64?, _ body: (inout TokenFile) -> Result
  ) throws(Failure) -> Result {
    try makeFolder()
    let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0 else { throw failure("open '\(path).lock'") }
    defer { close(lock) }
    while flock(lock, LOCK_EX) != 0 {
      guard errno == EINTR else { throw failure("lock '\(path).lock'") }
    }
    var file = try read()
    let result = body(&file)
    if let now { file.lines.removeAll { if case .code(let c) = $0 { c.expires <= now } else { false } } }
    try write(file)
    cached = file
    identity = FileIdentity(path: path)
    return result
  }

  /// Re-reads the file when its identity changed since the last read.
  private mutating func reloadIfChanged() {
    let now = FileIdentity(path: path)
    guard now != identity || now == nil else { return }
    identity = now
    cached = (try? read()) ?? TokenFile()
  }

  /// The file's lines; none when there is no file.
  private func read() throws(Failure) -> TokenFile {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT { return TokenFile() }
      throw failure("open '\(path)'")
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 14)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        bytes += chunk[..<n]
      } else if n == 0 {
        break
      } else if errno != EINTR {
        throw failure("read '\(path)'")
      }
    }
    return TokenFile(text: String(decoding: bytes, as: UTF8.self))
  }

  /// Replaces the file with `file`: `<file>.tmp` (0600), flushed, renamed over it.
  private func write(_ file: TokenFile) throws(Failure) {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure("open '\(temporary)'") }
    let bytes = Array(file.text.utf8)
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
      if n >= 0 {
        written += n
      } else if errno != EINTR {
        let failed = failure("write '\(temporary)'")
        close(fd)
        unlink(temporary)
        throw failed
      }
    }
    guard fsync(fd) == 0 else {
      let failed = failure("flush '\(temporary)'")
      close(fd)
      unlink(temporary)
      throw failed
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
      let failed = failure("rename '\(temporary)' to '\(path)'")
      unlink(temporary)
      throw failed
    }
  }

  /// Makes the file's folder and the missing ones above it, 0700.
  private func makeFolder() throws(Failure) {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    let folder = String(path[..<slash])
    var prefix = ""
    for part in folder.split(separator: "/") {
      prefix += "/" + part
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw failure("make folder '\(prefix)'") }
    }
  }

  private func failure(_ doing: String) -> Failure {
    Failure(description: "cannot \(doing): \(String(cString: strerror(errno)))")
  }
}

/// What tells one version of a file from another without reading it.
struct FileIdentity: Equatable, Sendable {
  var inode: UInt64
  var size: Int64
  var modified: Int64

  /// The identity of the file at `path`, or `nil` when there is none.
  init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    inode = UInt64(status.st_ino)
    size = Int64(status.st_size)
    modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
  }
}
