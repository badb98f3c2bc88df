import Glibc

/// The ceiling: a server that does nothing but answer each line it receives, `OK` (badged's
/// status line) or `:1` (a Redis integer), on one thread with epoll. If the generator drives
/// this well above badged and Redis, the figures measured against them are theirs, not the
/// generator's.
struct EchoServer {
  let options: Options
  let wire: Wire

  func run() -> Never {
    let listener = listenUnix(options.socket)
    let poller = Poller(capacity: 1024)
    let listenerToken = Int(Int32.max)
    poller.add(listener, token: listenerToken)
    var connections: [Int: Connection] = [:]
    let reply = Array((wire.kind == .redis ? ":1\r\n" : "OK\n").utf8)
    var out: [UInt8] = []
    var nextToken = 0
    while true {
      poller.wait(timeoutMs: -1) { token, writable in
        if token == listenerToken {
          while case let fd = Glibc.accept(listener, nil, nil), fd >= 0 {
            setNonBlocking(fd)
            let connection = Connection(fd: fd, token: nextToken)
            connections[nextToken] = connection
            poller.add(fd, token: nextToken)
            nextToken += 1
          }
          return
        }
        guard let connection = connections[token] else { return }
        if writable { connection.flush(poller: poller) }
        switch connection.read() {
        case .empty: return
        case .closed:
          poller.remove(connection.fd)
          connections[token] = nil
          return
        case .data:
          let lines = connection.consumeNewlines()
          out.removeAll(keepingCapacity: true)
          for _ in 0..<lines { out += reply }
          if !out.isEmpty { connection.send(out, poller: poller) }
        }
      }
    }
  }
}
