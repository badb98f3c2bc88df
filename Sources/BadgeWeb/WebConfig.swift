import BadgeConfig
import BadgeCore

/// badged-web's configuration: the `[web]` section of badged.conf, validated
/// (`WebConfig+Parse.swift`). The defaults are what a file without the section gives.
public struct WebConfig: Sendable, Equatable {
  /// The keys `[web]` accepts.
  public enum Key: String, Sendable, CaseIterable {
    case listen
    case plaintext
    case certFile = "cert_file"
    case keyFile = "key_file"
    case allowOrigins = "allow_origins"
    case publicURL = "public_url"
    case tokensFile = "tokens_file"
    case root
    case keepalive
    case maxClients = "max_clients"
  }

  /// `listen =`: where the server answers, in this order.
  public var listen: [ListenAddress] = [.tcp(host: "127.0.0.1", port: 8787)]
  /// `plaintext =`: whether a non-loopback address may be served without TLS.
  public var plaintext = false
  /// `cert_file =`, `key_file =`: TLS's certificate chain and key (PEM); both or neither.
  public var certFile: String?
  public var keyFile: String?
  /// `allow_origins =`: the origins (`scheme://host[:port]`) whose pages may call the server
  /// with the user's token (CORS); none by default.
  public var allowOrigins: [String] = []
  /// `public_url =`: the URL `badgectl web link` prints; `nil`: `defaultPublicURL`.
  public var publicURL: String?
  /// `tokens_file =`: `nil` is `$XDG_STATE_HOME/badged/web-tokens`, which the program resolves.
  public var tokensFile: String?
  /// `root =`: the page's folder; `nil` is `<dir of the executable>/../share/badged/web`.
  public var root: String?
  /// `keepalive =`: seconds between the comments on an idle stream.
  public var keepalive = 15
  /// `max_clients =`: the most connections at once.
  public var maxClients = 16384

  public static let keepaliveRange = 1...300
  public static let maxClientsRange = 1...65536

  public init() {}

  /// Whether the server speaks TLS.
  public var usesTLS: Bool { certFile != nil && keyFile != nil }

  /// `public_url`, or the origin of the first TCP address that names one host
  /// (`http(s)://host:port`); `nil` when no URL is given and the server listens on Unix sockets
  /// or wildcard addresses (`0.0.0.0`, `::`) only, which no browser can be sent to.
  public var effectivePublicURL: String? {
    if let publicURL { return publicURL }
    for address in listen {
      if case .tcp(let host, _) = address, host != "0.0.0.0", host != "::" {
        return (usesTLS ? "https://" : "http://") + address.authority
      }
    }
    return nil
  }

  /// The `Host` values the server answers to (docs/WEB.md, "Access"): each TCP address's
  /// `host:port`, `localhost`, `127.0.0.1` and `[::1]` at each TCP port, and the public URL's
  /// authority; lowercased.
  public var hosts: Set<String> {
    var hosts: Set<String> = []
    for address in listen {
      guard case .tcp(_, let port) = address else { continue }
      hosts.insert(address.authority.lowercased())
      hosts.insert("localhost:\(port)")
      hosts.insert("127.0.0.1:\(port)")
      hosts.insert("[::1]:\(port)")
    }
    if let publicURL, let authority = WebConfig.authority(ofURL: publicURL)?.lowercased() {
      // A browser leaves the scheme's own port out of `Host`; it may also be written out.
      let defaultPort = publicURL.lowercased().hasPrefix("https:") ? ":443" : ":80"
      let hostEnd = authority.lastIndex(of: "]") ?? authority.startIndex
      let hasPort = authority[hostEnd...].contains(":")
      hosts.insert(authority)
      if !hasPort { hosts.insert(authority + defaultPort) }
      if authority.hasSuffix(defaultPort) { hosts.insert(String(authority.dropLast(defaultPort.count))) }
    }
    return hosts
  }

  /// The `host[:port]` of an `http(s)://` URL.
  static func authority(ofURL url: String) -> String? {
    guard let range = url.firstRange(of: "://") else { return nil }
    let rest = url[range.upperBound...]
    return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
  }
}

/// One address of `listen`.
public enum ListenAddress: Sendable, Equatable {
  /// An IP address (IPv6 without its brackets) and a port.
  case tcp(host: String, port: Int)
  /// A Unix socket's absolute path (for a reverse proxy).
  case unix(path: String)

  /// `host:port`, `[v6]:port`, or `unix:/path`, as written in the config.
  public var authority: String {
    switch self {
    case .tcp(let host, let port): return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    case .unix(let path): return "unix:" + path
    }
  }

  /// Whether only this machine can reach it: a loopback IP, or a Unix socket.
  public var isLoopback: Bool {
    switch self {
    case .tcp(let host, _): return host == "::1" || host.hasPrefix("127.") || host == "localhost"
    case .unix: return true
    }
  }
}
