import BadgeCore
import BadgeProtocol

/// What `RequestParser` makes of `line`, without its id.
func parse(_ line: String) -> Result<Request, ProtocolError>? {
  parse(bytes(line))
}

/// What `RequestParser` makes of raw bytes, without its id.
func parse(_ line: [UInt8]) -> Result<Request, ProtocolError>? {
  parseLine(line)?.map(\.request)
}

/// What `RequestParser` makes of `line`: the request and its id.
func parseLine(_ line: String) -> Result<RequestLine, ProtocolError>? {
  parseLine(bytes(line))
}

/// What `RequestParser` makes of raw bytes: the request and its id.
func parseLine(_ line: [UInt8]) -> Result<RequestLine, ProtocolError>? {
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
