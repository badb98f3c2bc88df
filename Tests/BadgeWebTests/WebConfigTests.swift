import BadgeConfig
import BadgeCore
import BadgeSystem
import BadgeWeb
import Glibc
import TestSupport
import Testing

/// `WebConfig.parse` over entries as the INI reader hands them out: every key's values and
/// refusals, with their messages.
@Suite struct WebConfigTests {
  /// Entries of `[web]`, from line 2 on.
  static func parse(_ items: [(key: String, value: String)]) throws(ConfigError) -> WebConfig {
    let entries = items.enumerated().map { ConfigEntry(section: "web", key: $1.key, value: $1.value, line: $0 + 2) }
    return try WebConfig.parse(entries, file: "badged.conf")
  }

  static func failure(_ items: [(key: String, value: String)]) -> String? {
    failureDescription { () throws(ConfigError) in try parse(items) }
  }

  /// config/badged.conf writes out every key of [web] that has a default, with that default;
  /// the others (paths, origins, the public URL) are there commented out.
  @Test func theExampleConfigsSectionIsTheDefaults() throws {
    let example = Repository.path("config/badged.conf")
    let entries = try IniFile.read(path: example)
    #expect(
      Set(entries.filter { $0.section == "web" }.map(\.key)) == ["listen", "plaintext", "keepalive", "max_clients"])
    #expect(try WebConfig.parse(entries, file: example) == WebConfig())
    let text = String(decoding: try #require(try StateFiles.read(example)), as: UTF8.self)
    for key in ["cert_file", "key_file", "allow_origins", "public_url", "tokens_file", "root"] {
      #expect(text.contains("\n# \(key) = "), "config/badged.conf shows \(key)")
    }
  }

  @Test func noSectionGivesTheDefaults() throws {
    let config = try WebConfig.parse(
      [ConfigEntry(section: "tray", key: "listen", value: "x", line: 2)], file: "badged.conf")
    #expect(config == WebConfig())
    #expect(config.listen == [.tcp(host: "127.0.0.1", port: 8787)])
    #expect(!config.plaintext && config.certFile == nil && config.keyFile == nil && !config.usesTLS)
    #expect(config.allowOrigins == [] && config.publicURL == nil && config.tokensFile == nil && config.root == nil)
    #expect(config.keepalive == 15 && config.maxClients == 16384)
    #expect(config.effectivePublicURL == "http://127.0.0.1:8787")
    #expect(config.hosts == ["127.0.0.1:8787", "localhost:8787", "[::1]:8787"])
  }

  @Test func listenTakesIPv4IPv6AndUnixSocketsInOrder() throws {
    let config = try Self.parse([("listen", "127.0.0.1:9000 [::1]:9001 unix:/run/user/1000/badged-web.sock")])
    #expect(
      config.listen == [
        .tcp(host: "127.0.0.1", port: 9000), .tcp(host: "::1", port: 9001),
        .unix(path: "/run/user/1000/badged-web.sock"),
      ])
    #expect(config.hosts.contains("[::1]:9001") && config.hosts.contains("localhost:9000"))
    #expect(try Self.parse([("listen", "localhost:80")]).listen == [.tcp(host: "127.0.0.1", port: 80)])
    #expect(try Self.parse([("listen", "unix:/tmp/w.sock")]).effectivePublicURL == nil)
  }

  @Test func listenRefusals() {
    let expected = "expected host:port, [v6]:port or unix:/absolute/path"
    #expect(
      Self.failure([("listen", "")]) == "badged.conf:2: Invalid value '' for listen: expected at least one address")
    #expect(
      Self.failure([("listen", "8787")]) == "badged.conf:2: Invalid value '8787' for listen: \(expected), not '8787'")
    #expect(
      Self.failure([("listen", "example.org:80")])
        == "badged.conf:2: Invalid value 'example.org:80' for listen: \(expected), not 'example.org:80'")
    #expect(
      Self.failure([("listen", "::1:80")])
        == "badged.conf:2: Invalid value '::1:80' for listen: \(expected), not '::1:80'")
    #expect(
      Self.failure([("listen", "127.0.0.1:0")])
        == "badged.conf:2: Invalid value '127.0.0.1:0' for listen: expected a port from 1 to 65535 in '127.0.0.1:0'")
    #expect(
      Self.failure([("listen", "127.0.0.1:65536")])
        == "badged.conf:2: Invalid value '127.0.0.1:65536' for listen: expected a port from 1 to 65535 in "
        + "'127.0.0.1:65536'")
    #expect(
      Self.failure([("listen", "unix:run/w.sock")])
        == "badged.conf:2: Invalid value 'unix:run/w.sock' for listen: a Unix socket needs an absolute path under "
        + "108 bytes, not 'run/w.sock'")
    #expect(
      Self.failure([("listen", "127.0.0.1:1 127.0.0.1:1")])
        == "badged.conf:2: Invalid value '127.0.0.1:1 127.0.0.1:1' for listen: '127.0.0.1:1' is listed twice")
  }

  @Test func aNonLoopbackAddressNeedsTLSOrPlaintext() throws {
    #expect(
      Self.failure([("keepalive", "20"), ("listen", "0.0.0.0:8787")])
        == "badged.conf:3: listen address 0.0.0.0:8787 is reachable from other machines; give cert_file and "
        + "key_file for TLS, or plaintext = yes to serve it unencrypted")
    let plain = try Self.parse([("listen", "192.168.1.5:8787 127.0.0.1:8787"), ("plaintext", "yes")])
    #expect(plain.plaintext && plain.effectivePublicURL == "http://192.168.1.5:8787")
    // A wildcard address names no host a browser can be sent to.
    let wildcard = try Self.parse([("listen", "0.0.0.0:8787 [::]:8788"), ("plaintext", "yes")])
    #expect(wildcard.effectivePublicURL == nil)
    #expect(wildcard.hosts.contains("localhost:8787") && wildcard.hosts.contains("[::1]:8788"))
    #expect(
      Self.failure([("plaintext", "maybe")]) == "badged.conf:2: Invalid value 'maybe' for plaintext: expected yes or no"
    )
  }

  @Test func certificateAndKeyBothReadableOrNeither() throws {
    let folder = try TemporaryFolder()
    let cert = folder.path + "/cert.pem"
    let key = folder.path + "/key.pem"
    for path in [cert, key] {
      let fd = open(path, O_CREAT | O_WRONLY, 0o600)
      close(fd)
    }
    let tls = try Self.parse([("listen", "0.0.0.0:8443"), ("cert_file", cert), ("key_file", key)])
    #expect(tls.usesTLS && tls.certFile == cert && tls.keyFile == key)
    #expect(tls.effectivePublicURL == nil)
    #expect(
      try Self.parse([("listen", "192.168.1.5:8443"), ("cert_file", cert), ("key_file", key)]).effectivePublicURL
        == "https://192.168.1.5:8443")
    #expect(
      Self.failure([("cert_file", cert)])
        == "badged.conf:2: cert_file is given without key_file; give both or neither")
    #expect(
      Self.failure([("listen", "127.0.0.1:1"), ("key_file", key)])
        == "badged.conf:3: key_file is given without cert_file; give both or neither")
    #expect(
      Self.failure([("cert_file", cert), ("key_file", folder.path + "/missing.pem")])
        == "badged.conf:3: key_file '\(folder.path)/missing.pem' cannot be read: No such file or directory")
    #expect(
      Self.failure([("cert_file", "cert.pem")])
        == "badged.conf:2: Invalid value 'cert.pem' for cert_file: expected an absolute path")
  }

  @Test func allowOriginsAreOriginsWithoutPathsOrStars() throws {
    #expect(
      try Self.parse([("allow_origins", "https://Home.example.org:8443 http://wall.lan")]).allowOrigins
        == ["https://home.example.org:8443", "http://wall.lan"])
    #expect(
      Self.failure([("allow_origins", "*")])
        == "badged.conf:2: Invalid value '*' for allow_origins: '*' is not allowed; name each origin")
    #expect(
      Self.failure([("allow_origins", "https://*.example.org")])
        == "badged.conf:2: Invalid value 'https://*.example.org' for allow_origins: '*' is not allowed; name each origin"
    )
    let refusal = "expected an origin such as https://example.org:8443 (no path)"
    #expect(
      Self.failure([("allow_origins", "https://example.org/app")])
        == "badged.conf:2: Invalid value 'https://example.org/app' for allow_origins: \(refusal), not "
        + "'https://example.org/app'")
    #expect(
      Self.failure([("allow_origins", "example.org")])
        == "badged.conf:2: Invalid value 'example.org' for allow_origins: \(refusal), not 'example.org'")
    #expect(
      Self.failure([("allow_origins", "ftp://example.org")])
        == "badged.conf:2: Invalid value 'ftp://example.org' for allow_origins: \(refusal), not 'ftp://example.org'")
  }

  @Test func publicURL() throws {
    let config = try Self.parse([("public_url", "https://badges.example.org/")])
    #expect(config.publicURL == "https://badges.example.org")
    #expect(config.effectivePublicURL == "https://badges.example.org")
    #expect(config.hosts.contains("badges.example.org") && config.hosts.contains("badges.example.org:443"))
    #expect(try Self.parse([("public_url", "http://[fd00::5]")]).hosts.isSuperset(of: ["[fd00::5]", "[fd00::5]:80"]))
    #expect(
      try Self.parse([("public_url", "http://Wall.lan:80/badges")]).hosts.isSuperset(of: ["wall.lan:80", "wall.lan"]))
    #expect(!(try Self.parse([("public_url", "https://x.org:8443")]).hosts.contains("x.org")))
    #expect(
      Self.failure([("public_url", "badges.example.org")])
        == "badged.conf:2: Invalid value 'badges.example.org' for public_url: expected an http:// or https:// URL")
    #expect(
      Self.failure([("public_url", "https://x.org/?a=1")])
        == "badged.conf:2: Invalid value 'https://x.org/?a=1' for public_url: a query or fragment is not allowed")
  }

  @Test func pathsAreAbsolute() throws {
    let config = try Self.parse([("tokens_file", "/var/lib/t"), ("root", "/usr/share/badged/web")])
    #expect(config.tokensFile == "/var/lib/t" && config.root == "/usr/share/badged/web")
    #expect(
      Self.failure([("tokens_file", "~/t")])
        == "badged.conf:2: Invalid value '~/t' for tokens_file: expected an absolute path")
    #expect(Self.failure([("root", "web")]) == "badged.conf:2: Invalid value 'web' for root: expected an absolute path")
  }

  @Test func keepaliveAndMaxClientsRanges() throws {
    let config = try Self.parse([("keepalive", "300"), ("max_clients", "1")])
    #expect(config.keepalive == 300 && config.maxClients == 1)
    #expect(
      Self.failure([("keepalive", "0")])
        == "badged.conf:2: Invalid value '0' for keepalive: expected a number from 1 to 300")
    #expect(
      Self.failure([("keepalive", "301")])
        == "badged.conf:2: Invalid value '301' for keepalive: expected a number from 1 to 300")
    #expect(
      Self.failure([("max_clients", "65537")])
        == "badged.conf:2: Invalid value '65537' for max_clients: expected a number from 1 to 65536")
    #expect(
      Self.failure([("max_clients", "x")])
        == "badged.conf:2: Invalid value 'x' for max_clients: expected a whole number")
  }

  @Test func unknownKeysAreNamed() {
    #expect(
      Self.failure([("port", "80")])
        == "badged.conf:2: Unknown key 'port' in [web]; expected one of listen, plaintext, cert_file, key_file, "
        + "allow_origins, public_url, tokens_file, root, keepalive, max_clients")
  }
}
