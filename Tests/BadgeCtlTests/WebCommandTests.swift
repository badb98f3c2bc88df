import BadgeCtlSession
import BadgeWeb
import Testing

@testable import BadgeCtl

/// `badgectl web`: its command line, and what badgectl-session prints for it (the link with
/// its QR code, the tokens table).
@Suite struct WebCommandTests {
  @Test func actionsAndOptions() {
    let link = parse(["web", "link"], as: WebCommand.self)
    #expect(link?.action == .link && link?.readOnly == false && link?.name == "browser" && link?.configFile == nil)
    let wall = parse(
      ["web", "link", "--read-only", "--name", "wall tablet", "--config", "/etc/b.conf"], as: WebCommand.self)
    #expect(wall?.readOnly == true && wall?.name == "wall tablet" && wall?.configFile == "/etc/b.conf")
    let token = parse(["web", "token", "--read-only"], as: WebCommand.self)
    #expect(token?.action == .token && token?.readOnly == true && token?.name == "script")
    #expect(parse(["web", "tokens"], as: WebCommand.self)?.action == .list)
    #expect(parse(["web", "tokens", "revoke", "1f21d346"], as: WebCommand.self)?.action == .revoke(id: "1f21d346"))
  }

  @Test(arguments: [
    (["web"], "Missing expected argument 'link|token|tokens'"),
    (["web", "links"], "Unknown argument 'links'; expected link, token or tokens"),
    (["web", "tokens", "revoke"], "Missing expected argument '<id>' after 'tokens revoke'"),
    (["web", "tokens", "--read-only"], "--read-only and --name go with 'link' and 'token' only"),
    (["web", "tokens", "revoke", "x", "--name", "n"], "--read-only and --name go with 'link' and 'token' only"),
    (["web", "link", "--name", ""], "--name needs a text"),
    (["web", "link", "--config", ""], "--config needs a file"),
    (["web", "link", "now"], "Unexpected argument 'now'"),
    (["web", "tokens", "list"], "Unexpected argument 'list'"),
  ])
  func refusals(words: [String], message: String) {
    #expect(refusal(words) == usageError(message, of: "web"))
  }

  @Test func theQRCodeIsTwoModulesACharacterWithAQuietZone() {
    // A 2×2 code: dark, light / light, dark; with the zone of 2 it is 6×6, three lines.
    let lines = QRCodeText.lines([[true, false], [false, true]], colours: false)
    #expect(lines == ["██████", "██▄▀██", "██████"])
    #expect(QRCodeText.lines([[true]], colours: true).first == "\u{1B}[97;40m█████\u{1B}[0m")
    #expect(QRCodeText.lines([[true]], colours: false) == ["█████", "██▄██", "▀▀▀▀▀"])
  }

  @Test func theLinksQRCodeIsOfItsURL() throws {
    let url = "http://127.0.0.1:8787/link?code=SkJcIP1W36yOtOAwDSEjug"
    let modules = try #require(QRCodeText.modules(of: url))
    // Version 4 (33 modules) holds this URL at level M; finder patterns in three corners.
    #expect(modules.count == 33 && modules.allSatisfy { $0.count == 33 })
    #expect(modules[0][0...6].allSatisfy { $0 } && modules[0][26...32].allSatisfy { $0 } && modules[32][0])
    #expect(!modules[1][1] && modules[2][2])
    let text = WebTokens.linkText(url: url, readOnly: true, colours: false)
    #expect(text.hasPrefix("Open this link in the browser to link (within 10 minutes, once):\n\n  \(url)\n\n  █████"))
    #expect(text.hasSuffix("\n\nThe browser will see counts but not change them.\n"))
    #expect(text.split(separator: "\n").count == 2 + (33 + 4 + 1) / 2 + 1)
  }

  @Test func theTokensTable() {
    let hash = String(repeating: "ab", count: 32)
    let tokens = [
      TokenFile.Token(id: "abababab", level: .write, hash: hash, created: 1_790_000_000, name: "my phone"),
      TokenFile.Token(id: "cdcdcdcd", level: .read, hash: hash, created: 0, name: "wall"),
    ]
    #expect(
      WebTokens.table(tokens) == """
        ID        ACCESS  CREATED            NAME
        abababab  write   2026-09-21 14:13Z  my phone
        cdcdcdcd  read    1970-01-01 00:00Z  wall

        """)
    #expect(WebTokens.table([]) == "No tokens; 'badgectl web link' makes one.\n")
  }
}
