import BadgeWeb
import CMicroHTTPD
import Glibc

/// What a request's answer is: a whole response, or an event stream pulled from a source.
enum HTTPAnswer {
  case response(HTTPResponse)
  case stream(status: Int, headers: [(name: String, value: String)], source: EventStreamSource)
}

/// How the program answers one request, now or later (a write waits for badged's reply); the
/// first answer counts, and one given after the client went away is dropped.
final class Responder {
  private weak var exchange: HTTPExchange?

  init(_ exchange: HTTPExchange) { self.exchange = exchange }

  /// Whether the request came over TLS.
  var isSecure: Bool { exchange?.daemon.secure ?? false }

  /// Answers with a whole response (an `.events` body is the program's to turn into `stream`).
  func answer(_ response: HTTPResponse) { exchange?.answered(.response(response)) }

  /// Answers with an event stream: `source` is read as the client takes it.
  /// Returns false when the client went away first (the source is then never read nor closed).
  @discardableResult
  func stream(status: Int = 200, headers: [(name: String, value: String)], source: EventStreamSource) -> Bool {
    guard let exchange, exchange.isOpen else { return false }
    exchange.answered(.stream(status: status, headers: headers, source: source))
    return true
  }
}

/// One request on one connection, from its headers to its answer: libmicrohttpd calls the
/// access handler with the headers, then with each part of the body, then once with nothing
/// more (where the request is handed on), and once more after a resume (where a late answer is
/// queued). The exchange is kept in the connection's request context from the first call until
/// libmicrohttpd says the request is done (`MHD_OPTION_NOTIFY_COMPLETED`).
final class HTTPExchange {
  unowned let daemon: HTTPDaemon
  private let connection: OpaquePointer
  private var bodyBytes = 0
  private(set) var tooLarge = false
  private var postProcessor: OpaquePointer?
  /// A urlencoded body's fields, decoded by libmicrohttpd's post processor.
  private var form: [(name: String, value: String)] = []
  private var dispatched = false
  private var answer: HTTPAnswer?
  private var inHandler = false
  private var suspended = false
  private var finished = false

  var server: HTTPServer { daemon.server }

  /// Whether the request still waits for its answer (its client is there, none was given).
  var isOpen: Bool { !finished && answer == nil }

  init(daemon: HTTPDaemon, connection: OpaquePointer) {
    self.daemon = daemon
    self.connection = connection
  }

  /// The headers are in: a body announced over the limit is refused before it is read, and a
  /// urlencoded one gets a post processor.
  private func headersArrived() -> MHD_Result {
    if let length = header("Content-Length"), let count = UInt64(length), count > UInt64(server.limits.bodyBytes) {
      return queue(.response(WebReply.tooLarge))
    }
    if let type = header("Content-Type"), type.lowercased().hasPrefix("application/x-www-form-urlencoded") {
      postProcessor = MHD_create_post_processor(
        connection, 1024, HTTPExchange.formField, Unmanaged.passUnretained(self).toOpaque())
    }
    return .YES
  }

  /// A part of the body: counted (a chunked body has no length to check first), and parsed
  /// when it is a form.
  private func bodyPart(_ data: UnsafePointer<CChar>, count: Int) {
    bodyBytes += count
    if bodyBytes > server.limits.bodyBytes { tooLarge = true }
    guard !tooLarge, let postProcessor else { return }
    _ = MHD_post_process(postProcessor, data, count)
  }

  /// The request is whole (or called again after a resume).
  private func complete(method: String, url: String) -> MHD_Result {
    if let answer { return queue(answer) }
    if tooLarge { return queue(.response(WebReply.tooLarge)) }
    // While stopping nothing is handed on: an answer awaited now would leave the connection
    // suspended, and libmicrohttpd aborts when it stops with one.
    if server.closing { return queue(.response(HTTPExchange.closingResponse)) }
    if dispatched { return .YES }
    dispatched = true
    let request = HTTPRequest(
      method: method, path: url, arguments: values(.GET_ARGUMENT_KIND) + form,
      headers: values(.HEADER_KIND).map { (name: $0.name.lowercased(), value: $0.value) },
      secure: daemon.secure)
    inHandler = true
    server.handler(request, Responder(self))
    inHandler = false
    if let answer { return queue(answer) }
    suspended = true
    MHD_suspend_connection(connection)
    server.suspended(self)
    return .YES
  }

  /// The program's answer: queued at once from inside the handler, else the connection is
  /// resumed and the next run queues it.
  func answered(_ answer: HTTPAnswer) {
    guard !finished, self.answer == nil else { return }
    self.answer = answer
    guard !inHandler, suspended else { return }
    suspended = false
    server.resumed(self)
    MHD_resume_connection(connection)
    server.run()
  }

  /// The server stops: a request still waiting is resumed, to be answered 503.
  func resumeForClosing() {
    guard suspended else { return }
    suspended = false
    server.resumed(self)
    MHD_resume_connection(connection)
  }

  func queue(_ answer: HTTPAnswer) -> MHD_Result {
    let response: OpaquePointer?
    let status: Int
    let headers: [(name: String, value: String)]
    switch answer {
    case .response(let whole):
      status = whole.status
      headers = whole.headers
      var bytes: [UInt8] = []
      if case .bytes(let body) = whole.body { bytes = body }
      response = bytes.withUnsafeBytes { raw in
        MHD_create_response_from_buffer(
          raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
      }
    case .stream(let streamStatus, let streamHeaders, let source):
      status = streamStatus
      headers = streamHeaders
      response = HTTPEventStream.makeResponse(server: server, connection: connection, source: source)
    }
    guard let response else { return .NO }
    for header in headers { _ = MHD_add_response_header(response, header.name, header.value) }
    let result = MHD_queue_response(connection, UInt32(status), response)
    MHD_destroy_response(response)
    return result
  }

  private func header(_ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
  }

  /// The connection's values of `kind` (headers, the query's arguments), in order.
  private func values(_ kind: MHD_ValueKind) -> [(name: String, value: String)] {
    var collected: [(name: String, value: String)] = []
    withUnsafeMutablePointer(to: &collected) { pointer in
      _ = MHD_get_connection_values(
        connection, kind,
        { cls, _, key, value in
          let list = cls!.assumingMemoryBound(to: [(name: String, value: String)].self)
          if let key { list.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? "")) }
          return .YES
        }, pointer)
    }
    return collected
  }

  private func finish() {
    finished = true
    if let postProcessor { _ = MHD_destroy_post_processor(postProcessor) }
    postProcessor = nil
  }

  static let closingResponse = HTTPResponse.error(503, "unavailable", "badged-web is stopping")

  // MARK: - libmicrohttpd's callbacks

  static let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, upload, uploadSize, context in
    guard let cls, let connection, let context, let uploadSize else { return .NO }
    guard let stored = context.pointee else {
      let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
      let exchange = HTTPExchange(daemon: daemon, connection: connection)
      context.pointee = Unmanaged.passRetained(exchange).toOpaque()
      return exchange.headersArrived()
    }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
      if let upload { exchange.bodyPart(upload, count: uploadSize.pointee) }
      uploadSize.pointee = 0
      // A body without a length (chunked) is refused as soon as it passes the limit, not read on:
      // libmicrohttpd 0.9.75 takes no response while a body comes in, so the connection closes.
      if exchange.tooLarge { return exchange.queue(.response(WebReply.tooLarge)) }
      return .YES
    }
    return exchange.complete(
      method: method.map { String(cString: $0) } ?? "", url: url.map { String(cString: $0) } ?? "/")
  }

  static let completedHandler: MHD_RequestCompletedCallback = { _, _, context, _ in
    guard let context, let stored = context.pointee else { return }
    context.pointee = nil
    Unmanaged<HTTPExchange>.fromOpaque(stored).takeRetainedValue().finish()
  }

  static let formField: MHD_PostDataIterator = { cls, _, key, _, _, _, data, offset, size in
    guard let cls, let key else { return .YES }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key)
    let part =
      data.map { pointer in
        String(decoding: UnsafeRawBufferPointer(start: pointer, count: size), as: UTF8.self)
      } ?? ""
    if offset > 0, let last = exchange.form.indices.last, exchange.form[last].name == name {
      exchange.form[last].value += part
    } else {
      exchange.form.append((name, part))
    }
    return .YES
  }
}
