import BadgeWeb
import Glibc
import Testing

/// `TokenStore` on files of the test's own: codes once and within their time, tokens issued,
/// listed, revoked, and a file another program rewrote read again.
@Suite struct TokenStoreTests {
  static let now: Int64 = 1_790_000_000

  @Test func secretsAreBase64URLOfTheirLengthAndHashedWithSHA256() {
    #expect(WebSecret.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(WebSecret.base64URL([0xFB, 0xFF]) == "-_8")
    #expect(WebSecret.base64URL(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(WebSecret.base64URL(Array("fooba".utf8)) == "Zm9vYmE")
    #expect(WebSecret.base64URL([]) == "")
    #expect(WebSecret.base64(Array("fooba".utf8)) == "Zm9vYmE=")
    #expect(WebSecret.base64(Array("foob".utf8)) == "Zm9vYg==")
    #expect(WebSecret.base64([0xFB, 0xFF]) == "+/8=")
    let token = WebSecret.newToken()
    let code = WebSecret.newCode()
    #expect(token.utf8.count == 43 && code.utf8.count == 22)
    #expect(WebSecret.isWellFormed(token) && WebSecret.isWellFormed(code))
    #expect(token != WebSecret.newToken())
    #expect(!WebSecret.isWellFormed("a b") && !WebSecret.isWellFormed("") && !WebSecret.isWellFormed("a=b"))
  }

  @Test func aCodeIsRedeemedOnceForATokenOfItsAccess() throws {
    let folder = try TemporaryFolder()
    var store = TokenStore(path: folder.path + "/state/badged/web-tokens")
    let code = try store.issueCode(level: .read, name: "wall tablet", now: Self.now)
    #expect(code.utf8.count == 22)
    let issued = try #require(try store.redeem(code: code, now: Self.now + 599))
    #expect(issued.access.level == .read && issued.name == "wall tablet")
    #expect(issued.access.id == String(WebSecret.sha256Hex(issued.token).prefix(8)))
    #expect(store.authenticate(issued.token) == issued.access)
    #expect(try store.redeem(code: code, now: Self.now + 1) == nil)
    #expect(try store.list().count == 1)
  }

  @Test func anExpiredCodeIsRefusedAndDropped() throws {
    let folder = try TemporaryFolder()
    var store = TokenStore(path: folder.path + "/web-tokens")
    let code = try store.issueCode(level: .write, name: "phone", now: Self.now)
    #expect(try store.redeem(code: code, now: Self.now + 600) == nil)
    #expect(try store.list().isEmpty)
    #expect(try Self.text(folder.path + "/web-tokens") == "")
    #expect(try store.redeem(code: "not a code", now: Self.now) == nil)
    #expect(try store.redeem(code: WebSecret.newCode(), now: Self.now) == nil)
  }

  @Test func tokensAreWrittenAsTheirHashesAndRevokedById() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/web-tokens"
    var store = TokenStore(path: path)
    let script = try store.issueToken(level: .write, name: "backup\nscript", now: Self.now)
    let wall = try store.issueToken(level: .read, name: "", now: Self.now + 5)
    let hash = WebSecret.sha256Hex(script.token)
    #expect(
      try Self.text(path)
        == "token \(hash.prefix(8)) write \(hash) \(Self.now) backup script\n"
        + "token \(wall.access.id) read \(WebSecret.sha256Hex(wall.token)) \(Self.now + 5) -\n")
    #expect(!(try Self.text(path)).contains(script.token))
    #expect(try store.list().map(\.name) == ["backup script", "-"])
    #expect(try store.revoke(id: script.access.id))
    #expect(!(try store.revoke(id: script.access.id)))
    #expect(store.authenticate(script.token) == nil)
    #expect(store.authenticate(wall.token) == wall.access)
    #expect(!store.isValid(id: script.access.id) && store.isValid(id: wall.access.id))
  }

  @Test func theFileAndItsFolderArePrivate() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/new/badged/web-tokens"
    var store = TokenStore(path: path)
    _ = try store.issueToken(level: .read, name: "x", now: Self.now)
    var status = stat()
    #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(stat(folder.path + "/new/badged", &status) == 0 && status.st_mode & 0o777 == 0o700)
    #expect(access(path + ".tmp", F_OK) != 0)
  }

  @Test func aRevokeByAnotherProcessIsSeenAtTheNextAuthentication() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/web-tokens"
    var server = TokenStore(path: path)
    var tool = TokenStore(path: path)
    let issued = try tool.issueToken(level: .write, name: "phone", now: Self.now)
    #expect(server.authenticate(issued.token) == issued.access)
    // Another program (here: a shell) rewrites the file without the token.
    let status = system("printf '# emptied by hand\\n' > '\(path).new' && mv '\(path).new' '\(path)'")
    #expect(status == 0)
    #expect(server.authenticate(issued.token) == nil)
    // A token it adds by hand is let in.
    let added = try tool.issueToken(level: .read, name: "wall", now: Self.now)
    #expect(server.authenticate(added.token) == added.access)
    #expect(try Self.text(path).hasPrefix("# emptied by hand\ntoken "))
  }

  @Test func writersAtOnceLoseNothingAndACodeGoesToOneOfThem() async throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/web-tokens"
    var first = TokenStore(path: path)
    let code = try first.issueCode(level: .write, name: "phone", now: Self.now)
    // Each writer has its own store, as two programs do: the lock is all they share.
    let redeemed = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 {
        group.addTask {
          var store = TokenStore(path: path)
          _ = try? store.issueToken(level: .read, name: "script", now: Self.now)
          return (try? store.redeem(code: code, now: Self.now + 1)) != nil
        }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(redeemed == 1)
    #expect(try first.list().count == 9)
    #expect(try first.list().filter { $0.name == "phone" }.count == 1)
  }

  @Test func linesItDoesNotReadAreKept() {
    let text = "# tokens\n\ntoken zz bad line\ncode 12 read 5 x\n"
    let file = TokenFile(text: text)
    #expect(file.tokens.isEmpty && file.codes.isEmpty && file.lines.count == 4)
    #expect(file.text == text)
    let hash = WebSecret.sha256Hex("t")
    let parsed = TokenFile(text: "token \(hash.prefix(8)) read \(hash) 7 my wall tablet\n")
    #expect(
      parsed.tokens == [
        TokenFile.Token(id: String(hash.prefix(8)), level: .read, hash: hash, created: 7, name: "my wall tablet")
      ])
    #expect(TokenFile(text: "token 00000000 read \(hash) 7 x\n").tokens.isEmpty)
  }

  static func text(_ path: String) throws -> String {
    let file = try #require(fopen(path, "r"))
    defer { fclose(file) }
    var bytes: [UInt8] = []
    while true {
      let c = fgetc(file)
      if c == EOF { break }
      bytes.append(UInt8(c))
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
