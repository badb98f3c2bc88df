import BadgeConfig
import BadgeCtl
import BadgePOSIX
import BadgeSystem
import BadgeWeb
import Glibc

/// `badgectl web`'s work, in badgectl-session: the `[web]` section read as badged-web reads it,
/// the tokens file changed through `TokenStore`, and what is printed.
package enum WebTokens {
  /// Carries `command` out, printing to standard output; `now` is the wall clock in Unix
  /// seconds.
  package static func run(_ command: WebCommand, now: Int64, colours: Bool) throws(CtlError) {
    let config = try loadConfig(command.configFile)
    var store = TokenStore(path: config.tokensFile ?? XDGPaths.defaultWebTokensFile)
    let level: TokenAccess.Level = command.readOnly ? .read : .write
    switch command.action {
    case .link:
      guard let base = config.effectivePublicURL else {
        throw .config(
          "[web] listen names no address a browser can open (a Unix socket, 0.0.0.0 or ::); set public_url in [web]")
      }
      let code = try file { () throws(TokenStore.Failure) in
        try store.issueCode(level: level, name: command.name, now: now)
      }
      Output.write(linkText(url: base + "/link?code=" + code, readOnly: command.readOnly, colours: colours))
    case .token:
      let issued = try file { () throws(TokenStore.Failure) in
        try store.issueToken(level: level, name: command.name, now: now)
      }
      Output.write(issued.token + "\n")
    case .list:
      Output.write(table(try file { () throws(TokenStore.Failure) in try store.list() }))
    case .revoke(let id):
      guard try file({ () throws(TokenStore.Failure) in try store.revoke(id: id) }) else {
        throw .failed("No token has the id '\(id)'; see 'badgectl web tokens'")
      }
      Output.write("Revoked \(id).\n")
    }
  }

  /// What `body` returns; a failure of the tokens file as `CtlError.failed`.
  private static func file<Value>(_ body: () throws(TokenStore.Failure) -> Value) throws(CtlError) -> Value {
    do throws(TokenStore.Failure) {
      return try body()
    } catch {
      throw .failed("The tokens file: \(error)")
    }
  }

  /// `[web]` of `path` (the default file, which may be missing, when `nil`).
  static func loadConfig(_ path: String?) throws(CtlError) -> WebConfig {
    let file = path ?? XDGPaths.defaultConfigFile
    do throws(ConfigError) {
      return try WebConfig.parse(IniFile.read(path: file, mustExist: path != nil), file: file)
    } catch {
      throw CtlError.config(error.description)
    }
  }

  /// What `link` prints: the URL, its QR code, and how long it lasts.
  package static func linkText(url: String, readOnly: Bool, colours: Bool) -> String {
    var text = "Open this link in the browser to link (within 10 minutes, once):\n\n  \(url)\n\n"
    if let modules = QRCodeText.modules(of: url) {
      text += QRCodeText.lines(modules, colours: colours).map { "  " + $0 }.joined(separator: "\n") + "\n\n"
    }
    text += readOnly ? "The browser will see counts but not change them.\n" : ""
    return text
  }

  /// What `tokens` prints: ID, ACCESS, CREATED (UTC) and NAME, one token a line.
  package static func table(_ tokens: [TokenFile.Token]) -> String {
    guard !tokens.isEmpty else { return "No tokens; 'badgectl web link' makes one.\n" }
    let rows =
      [["ID", "ACCESS", "CREATED", "NAME"]]
      + tokens.map { [$0.id, $0.level.rawValue, utcTime($0.created), $0.name] }
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }.joined(separator: "  ")
        + "  " + row[3] + "\n"
    }.joined()
  }

  /// `2026-12-06 07:03Z`.
  package static func utcTime(_ seconds: Int64) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return
      "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))Z"
  }
}
