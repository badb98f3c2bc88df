/// An HTTP request as badged-web's decisions see it: what libmicrohttpd parsed, copied out of
/// its buffers. The transport (`BadgeWebProgram`'s `HTTPServer`) fills it; everything that
/// decides what to answer (`WebApp`, `WebAccess`, the API) reads it, so those are tested
/// without a socket.
public struct HTTPRequest: Sendable, Equatable {
  /// `GET`, `POST`, `HEAD`, `OPTIONS`, … as sent.
  public var method: String
  /// The path, percent-decoded by libmicrohttpd, without the query (`/api/channels/mail`).
  public var path: String
  /// The query's arguments and a urlencoded form body's fields, decoded, in order.
  public var arguments: [(name: String, value: String)]
  /// The headers, names lowercased, in order.
  public var headers: [(name: String, value: String)]
  /// Whether the request came over TLS.
  public var secure: Bool

  public init(
    method: String, path: String, arguments: [(name: String, value: String)] = [],
    headers: [(name: String, value: String)] = [], secure: Bool = false
  ) {
    self.method = method
    self.path = path
    self.arguments = arguments
    self.headers = headers
    self.secure = secure
  }

  /// The first header called `name` (any case).
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.name == lowered }?.value
  }

  /// The first argument called `name`.
  public func argument(_ name: String) -> String? {
    arguments.first { $0.name == name }?.value
  }

  /// The value of the cookie called `name`, from the `Cookie` headers.
  public func cookie(_ name: String) -> String? {
    for header in headers where header.name == "cookie" {
      for pair in header.value.split(separator: ";") {
        let trimmed = pair.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "=") else { continue }
        if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
      }
    }
    return nil
  }

  public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
    lhs.method == rhs.method && lhs.path == rhs.path && lhs.secure == rhs.secure
      && lhs.arguments.elementsEqual(rhs.arguments) { $0 == $1 }
      && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
  }
}

/// What badged-web answers: a whole body, or a stream of Server-Sent Events that the transport
/// pulls from as the client's socket takes it.
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  /// Headers besides the ones the transport adds (`Content-Length`, `Date`), in order.
  public var headers: [(name: String, value: String)]
  public var body: Body

  public enum Body: Sendable, Equatable {
    case bytes([UInt8])
    /// The SSE stream of `GET /events`, resuming after `lastEventID` when the client sent one.
    case events(EventsRequest)
  }

  public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A text body (`text/plain; charset=utf-8` unless `type` says otherwise).
  public static func text(
    _ status: Int, _ text: String, type: String = "text/plain; charset=utf-8",
    headers: [(name: String, value: String)] = []
  ) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", type)] + headers, body: .bytes(Array(text.utf8)))
  }

  /// The first header called `name` (any case).
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.name.lowercased() == lowered }?.value
  }

  public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
    lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
  }
}

/// What a client asked of the event stream.
public struct EventsRequest: Sendable, Equatable {
  /// The `Last-Event-ID` header (or the `lastEventId` argument, for a client that cannot set
  /// headers), parsed: the sequence number of the last change the client drew.
  public var lastEventID: UInt64?
  /// The patterns of the channels to stream (the `channel` arguments); every channel when empty.
  public var patterns: [String]

  public init(lastEventID: UInt64? = nil, patterns: [String] = []) {
    self.lastEventID = lastEventID
    self.patterns = patterns
  }
}
