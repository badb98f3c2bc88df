/// Where the broker is: `[mqtt] broker`, an `mqtts://host[:port]` or `mqtt://host[:port]` URL.
///
/// The host is a DNS name, an IPv4 address or an IPv6 address in brackets; nothing after the
/// port (a path, a query, credentials) is accepted, so that a URL copied from elsewhere with a
/// user name in it is refused rather than half used.
public struct BrokerAddress: Equatable, Sendable, CustomStringConvertible {
  /// Whether the connection is wrapped in TLS (`mqtts://`).
  public var tls: Bool
  /// The host as written, without brackets for IPv6.
  public var host: String
  public var port: Int

  /// The ports MQTT uses unless the URL says otherwise (IANA's `mqtt` and `secure-mqtt`).
  public static let plainPort = 1883
  public static let tlsPort = 8883

  public init(tls: Bool, host: String, port: Int) {
    self.tls = tls
    self.host = host
    self.port = port
  }

  /// Parses a broker URL; the reason it is refused otherwise, phrased to follow
  /// "Invalid value '…' for broker: ".
  public init(_ text: String) throws(InvalidBroker) {
    let rest: Substring
    if text.hasPrefix("mqtts://") {
      tls = true
      rest = text.dropFirst(8)
    } else if text.hasPrefix("mqtt://") {
      tls = false
      rest = text.dropFirst(7)
    } else {
      throw InvalidBroker("expected mqtts://host[:port] or mqtt://host[:port]")
    }
    var hostPart: Substring
    var portPart: Substring?
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { throw InvalidBroker("an IPv6 address needs its closing ']'") }
      hostPart = rest[rest.index(after: rest.startIndex)..<close]
      let after = rest[rest.index(after: close)...]
      if after.hasPrefix(":") {
        portPart = after.dropFirst()
      } else if !after.isEmpty {
        throw InvalidBroker("expected nothing after the host but :port")
      }
      guard BrokerAddress.isIPv6(hostPart) else { throw InvalidBroker("'\(hostPart)' is not an IPv6 address") }
    } else {
      if let colon = rest.firstIndex(of: ":") {
        hostPart = rest[..<colon]
        portPart = rest[rest.index(after: colon)...]
      } else {
        hostPart = rest
      }
      if hostPart.hasSuffix("/") && portPart == nil { hostPart = hostPart.dropLast() }
      guard BrokerAddress.isHostName(hostPart) else {
        throw InvalidBroker(
          "'\(hostPart)' is not a host name or address (letters, digits, '.' and '-'; nothing after :port)")
      }
    }
    host = String(hostPart)
    if var portText = portPart {
      if portText.hasSuffix("/") { portText = portText.dropLast() }
      guard !portText.isEmpty, portText.utf8.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
        let number = Int(portText), (1...65535).contains(number)
      else { throw InvalidBroker("the port must be a number from 1 to 65535") }
      port = number
    } else {
      port = tls ? BrokerAddress.tlsPort : BrokerAddress.plainPort
    }
  }

  /// Why a broker URL was refused.
  public struct InvalidBroker: Error, Equatable, Sendable {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// The URL as `BrokerAddress` reads it back (the port always written).
  public var description: String {
    (tls ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
  }

  /// Whether the host is this machine: `localhost`, 127.0.0.0/8 or `::1`. Plain `mqtt://` is
  /// accepted to these without `tls = off`, since the traffic never leaves the machine.
  public var isLoopback: Bool {
    if host.lowercased() == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "127" else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isNumber) && Int(part)! <= 255
    }
  }

  private static func isHostName(_ text: Substring) -> Bool {
    guard !text.isEmpty, text.utf8.count <= 253, !text.hasPrefix("-"), !text.hasPrefix(".") else { return false }
    return text.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2E || byte == 0x2D
        || byte == 0x5F
    }
  }

  private static func isIPv6(_ text: Substring) -> Bool {
    guard text.contains(":"), text.utf8.count <= 45 else { return false }
    return text.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) || byte == 0x3A || byte == 0x2E
    }
  }
}
