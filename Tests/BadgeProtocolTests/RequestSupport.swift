import BadgeCore
import BadgeProtocol

/// What `RequestParser` makes of `line`.
func parse(_ line: String) -> Result<Request, ProtocolError>? {
  parse(bytes(line))
}

/// What `RequestParser` makes of raw bytes.
func parse(_ line: [UInt8]) -> Result<Request, ProtocolError>? {
  line.withUnsafeBytes { RequestParser.parse($0) }
}

/// A channel name from a literal the test knows to be valid.
func name(_ text: String) -> ChannelName {
  guard let name = ChannelName(text) else { fatalError("'\(text)' is not a valid channel name") }
  return name
}

/// A pattern from a literal the test knows to be valid.
func pattern(_ text: String) -> ChannelPattern {
  guard let pattern = ChannelPattern(text) else { fatalError("'\(text)' is not a valid pattern") }
  return pattern
}

/// The rule every bad-name message ends with.
let namingRule = "names are 1-64 characters from A-Z a-z 0-9 . _ - : starting with a letter or digit"
