import BadgeProtocol
import BadgeTop

/// The request `line` reads as, as the daemon reads it: what a test expects the dashboard to
/// ask, written as a line.
func request(_ line: String) -> Request {
  guard case .success(let parsed)? = RequestParser.parse(line) else {
    fatalError("'\(line)' is not a request")
  }
  return parsed.request
}

extension TopAction {
  /// Sends the request `line` reads as.
  static func send(_ line: String) -> TopAction { .send(request(line)) }
}
