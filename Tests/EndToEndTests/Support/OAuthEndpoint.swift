import Foundation
import TestSupport

/// The token endpoint of a `MailServer` that takes OAuth2 logins: dovecot's `oauth2` passdb
/// posts each XOAUTH2 or OAUTHBEARER login's token to it (RFC 7662 introspection), and it
/// answers from a file the test rewrites at run time (Tests/EndToEndTests/Fixtures/
/// oauth-introspect.py), so a token can be accepted, then expire, mid-test.
final class OAuthEndpoint {
  private let child: Child
  private let tokens: String
  private let logPath: String
  let port: Int

  /// Starts it beside the server (`launcher`: in the server's namespace), accepting nothing.
  init(folder: TemporaryFolder, launcher: [String]) throws {
    tokens = try folder.write("oauth-tokens", "")
    logPath = folder.file("oauth-introspect.log")
    child = try Child(
      launcher + ["/usr/bin/python3", Repository.path("Tests/EndToEndTests/Fixtures/oauth-introspect.py"), tokens],
      environment: Child.environment(), stdout: .pipe, stderr: .file(logPath))
    var input = LineInput(fd: child.output)
    guard let line = try input.next(timeout: 10, what: "oauth-introspect.py"), let port = Int(line) else {
      throw TestFailure(
        "oauth-introspect.py did not start: \((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
    }
    self.port = port
    _ = try folder.write(
      "oauth2.conf.ext",
      """
      introspection_mode = post
      introspection_url = http://127.0.0.1:\(port)/introspect
      username_attribute = username
      active_attribute = active
      active_value = true

      """)
    dovecotSettings = folder.file("oauth2.conf.ext")
  }

  /// The passdb's `args`: the settings file that points dovecot here.
  let dovecotSettings: String

  /// Accepts exactly these tokens from the next login on, each for its user; every other
  /// token (one accepted before included) is refused: an expired token.
  func accept(_ tokens: [String: String]) throws {
    let text = tokens.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
    try text.write(toFile: self.tokens, atomically: true, encoding: .utf8)
  }

  /// Every request it answered: `introspect <token> -> <user or refused>` lines.
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  func stop() {
    child.signal(SIGTERM)
    child.wait()
  }
}
