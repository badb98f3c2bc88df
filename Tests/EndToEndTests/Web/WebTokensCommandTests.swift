import Foundation
import TestSupport
import Testing

/// `badgectl web` as a user runs it: the built badgectl hands it to badgectl-session, which
/// reads `[web]` and changes the tokens file; each step is seen in the file and in the next
/// command's output.
@Suite struct WebTokensCommandTests {
  /// `badgectl web …` with the config and state folders under `folder`.
  static func web(_ arguments: [String], in folder: TemporaryFolder) throws -> CtlResult {
    try badgectl(
      ["web"] + arguments, socket: nil,
      environment: ["XDG_CONFIG_HOME": folder.file("config"), "XDG_STATE_HOME": folder.file("state")])
  }

  @Test func linkTokenListAndRevoke() throws {
    let folder = try TemporaryFolder()
    let link = try Self.web(["link", "--name", "my phone"], in: folder)
    #expect(link.status == 0, "\(link.stderr)")
    let url = try #require(link.stdout.split(separator: "\n").first { $0.hasPrefix("  http://") })
    #expect(url.hasPrefix("  http://127.0.0.1:8787/link?code=") && url.count == 2 + 32 + 22)
    #expect(link.stdout.contains("█"))
    // The QR code says the link, read as a camera reads it (zbarimg).
    let printed = try folder.write("link.txt", link.stdout)
    let scanned = try run(
      "/usr/bin/python3", [Repository.path("Tests/EndToEndTests/Fixtures/web/qr-decode.py"), printed])
    #expect(scanned.status == 0 && scanned.stdout == url.dropFirst(2) + "\n", "\(scanned.stdout) \(scanned.stderr)")

    let token = try Self.web(["token", "--read-only"], in: folder)
    #expect(token.status == 0 && token.stdout.count == 44, "\(token.stderr)")
    let file = try String(contentsOfFile: folder.file("state/badged/web-tokens"), encoding: .utf8)
    let lines = file.split(separator: "\n")
    #expect(
      lines.count == 2 && lines[0].hasPrefix("code ")
        && lines[0].hasSuffix(" write \(lines[0].split(separator: " ")[3]) my phone"))
    #expect(lines[1].hasPrefix("token ") && lines[1].hasSuffix(" script") && !file.contains(token.stdout.dropLast()))

    let listed = try Self.web(["tokens"], in: folder)
    #expect(listed.status == 0)
    let rows = listed.stdout.split(separator: "\n")
    #expect(rows.count == 2 && rows[0] == "ID        ACCESS  CREATED            NAME")
    let id = String(rows[1].prefix(8))
    #expect(rows[1].dropFirst(8).hasPrefix("  read    ") && rows[1].hasSuffix("Z  script"))

    let revoked = try Self.web(["tokens", "revoke", id], in: folder)
    #expect(revoked.status == 0 && revoked.stdout == "Revoked \(id).\n")
    #expect(try Self.web(["tokens"], in: folder).stdout == "No tokens; 'badgectl web link' makes one.\n")
    let again = try Self.web(["tokens", "revoke", id], in: folder)
    #expect(again.status == 1 && again.stderr == "Error: No token has the id '\(id)'; see 'badgectl web tokens'\n")
  }

  @Test func aConfigBadgedWebWouldRefuseIsExit78AndChangesNothing() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(atPath: folder.file("config/badged"), withIntermediateDirectories: true)
    _ = try folder.write("config/badged/badged.conf", "[web]\nlisten = 0.0.0.0:8787\n")
    let refused = try Self.web(["link"], in: folder)
    #expect(refused.status == 78)
    #expect(
      refused.stderr
        == "Error: \(folder.file("config/badged/badged.conf")):2: listen address 0.0.0.0:8787 is reachable from "
        + "other machines; give cert_file and key_file for TLS, or plaintext = yes to serve it unencrypted\n")
    #expect(!FileManager.default.fileExists(atPath: folder.file("state/badged/web-tokens")))
    _ = try folder.write("config/badged/badged.conf", "[web]\nlisten = 0.0.0.0:8787\nplaintext = yes\n")
    let wildcard = try Self.web(["link"], in: folder)
    #expect(wildcard.status == 78 && wildcard.stderr.contains("set public_url in [web]"))
    _ = try folder.write(
      "config/badged/badged.conf", "[web]\npublic_url = https://badges.example.org\ntokens_file = \(folder.file("t"))\n"
    )
    let linked = try Self.web(["link"], in: folder)
    #expect(linked.status == 0 && linked.stdout.contains("  https://badges.example.org/link?code="))
    #expect(FileManager.default.fileExists(atPath: folder.file("t")))
    #expect(try Self.web(["link", "--config", folder.file("missing.conf")], in: folder).status == 78)
  }
}
