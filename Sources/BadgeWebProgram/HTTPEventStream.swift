import CMicroHTTPD
import Glibc

/// What an event stream reads from: the program's per-client cursor on the event ring.
protocol EventStreamSource: AnyObject {
  /// Copies up to `buffer.count` bytes into `buffer`.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> EventStreamRead
  /// The stream ended (the client went away, or the server stops): let go of the client.
  func closed()
}

/// What a source had for its stream.
enum EventStreamRead: Equatable {
  /// This many bytes were copied.
  case bytes(Int)
  /// Nothing now: the stream is suspended until `HTTPServer.wakeStreams()`.
  case wait
  /// The stream is over (the token was revoked): the response ends.
  case end
}

/// One open event stream: a libmicrohttpd response of unknown size (chunked) whose reader
/// pulls from the source. With nothing to send it suspends its connection rather than return
/// 0 unsuspended (which libmicrohttpd would answer by calling it again at once). The object
/// lives while libmicrohttpd keeps the response; its free callback ends it.
final class HTTPEventStream {
  private unowned let server: HTTPServer
  private let connection: OpaquePointer
  private let source: EventStreamSource
  private var suspended = false

  /// The size of each read libmicrohttpd asks for.
  static let blockSize = 4 * 1024

  private init(server: HTTPServer, connection: OpaquePointer, source: EventStreamSource) {
    self.server = server
    self.connection = connection
    self.source = source
  }

  /// The response for `source`'s stream on `connection`, registered with the server.
  static func makeResponse(server: HTTPServer, connection: OpaquePointer, source: EventStreamSource)
    -> OpaquePointer?
  {
    let stream = HTTPEventStream(server: server, connection: connection, source: source)
    let context = Unmanaged.passRetained(stream).toOpaque()
    guard
      let response = MHD_create_response_from_callback(
        UInt64.max, blockSize, HTTPEventStream.reader, context, HTTPEventStream.release)
    else {
      Unmanaged<HTTPEventStream>.fromOpaque(context).release()
      return nil
    }
    server.register(stream)
    return response
  }

  /// Resumes the stream if it was suspended; returns whether it was.
  func resume() -> Bool {
    guard suspended else { return false }
    suspended = false
    MHD_resume_connection(connection)
    return true
  }

  private func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    if server.closing { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
    switch source.read(into: buffer) {
    case .bytes(let count) where count > 0:
      return count
    case .bytes, .wait:
      suspended = true
      MHD_suspend_connection(connection)
      return 0
    case .end:
      return -1
    }
  }

  static let reader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -1 }
    let stream = Unmanaged<HTTPEventStream>.fromOpaque(cls).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
  }

  static let release: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let stream = Unmanaged<HTTPEventStream>.fromOpaque(cls).takeRetainedValue()
    stream.server.unregister(stream)
    stream.source.closed()
  }
}
