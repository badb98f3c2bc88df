import Foundation
import TestSupport

/// An IMAP server that answers as dovecot does until a chosen step, where it misbehaves
/// (Tests/EndToEndTests/Fixtures/hostile-imap.py): what the IMAP source must survive with
/// bounded memory, a clear status and no crash. Plain IMAP on 127.0.0.1 and a free port (a
/// source reaches it with `imap://127.0.0.1:<port>` and `allow_plaintext = yes`); any user and
/// password log in; each connection is served alike, so a reconnecting client meets the same
/// fault again.
final class HostileImapServer {
  enum Misbehaviour: String, CaseIterable, Sendable {
    /// `* 1 FETCH (BODY[] {104857600}` and the 100 MB after it.
    case hugeLiteral = "literal"
    /// `* OK ` and bytes without a line end, without end.
    case endlessLine = "endless-line"
    /// Responses no RFC defines, then the normal answer.
    case unknownResponses = "unknown"
    /// `* BYE`, then the connection closes.
    case bye
    /// Nothing, ever; the connection stays open.
    case stuck
    /// Half a response line, then the connection closes.
    case closeMidLine = "close-mid-line"
  }

  /// Where the misbehaviour takes the place of the server's answer.
  enum Step: String, Sendable {
    case greeting, login, select
    /// Right after `+ idling`.
    case idle
  }

  let folder: TemporaryFolder
  let port: Int
  private let child: Child

  init(_ misbehaviour: Misbehaviour, at step: Step = .idle) throws {
    folder = try TemporaryFolder()
    child = try Child(
      [
        "/usr/bin/python3", Repository.path("Tests/EndToEndTests/Fixtures/hostile-imap.py"), misbehaviour.rawValue,
        step.rawValue,
      ], environment: Child.environment(), stdout: .pipe, stderr: .file(folder.file("hostile.log")))
    var input = LineInput(fd: child.output)
    guard let line = try input.next(timeout: 10, what: "hostile-imap.py"), let port = Int(line) else {
      throw TestFailure(
        "hostile-imap.py did not start: \((try? String(contentsOfFile: folder.file("hostile.log"), encoding: .utf8)) ?? "")"
      )
    }
    self.port = port
  }

  deinit { stop() }

  /// The source's `server` setting for it.
  var url: String { "imap://127.0.0.1:\(port)" }

  /// What it did: `connection`, `command <tag> <verb>`, `misbehaving <mode> at <step>`,
  /// `client closed after <n> bytes` or `sent <n> bytes`, a line each.
  var log: [String] {
    ((try? String(contentsOfFile: folder.file("hostile.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  /// How many bytes of the misbehaviour the client read before it closed the connection, once
  /// it has (nil until then, or when the server sent it all).
  var bytesReadBeforeClose: Int? {
    log.last { $0.hasPrefix("client closed after ") }.flatMap { Int($0.split(separator: " ")[3]) }
  }

  func stop() {
    child.signal(SIGTERM)
    child.wait()
  }
}
