/// The two protocols spoken: badged's lines and Redis's inline commands with RESP replies.
/// Only what the scenarios use: INCR, PUBLISH, PING, GET, WATCH/SUBSCRIBE.
struct Wire {
  enum Kind: String { case badged, redis }
  let kind: Kind

  /// The channel (Redis: key and pub/sub channel) of the fan-out scenarios.
  static let fanOutChannel = "bench"

  static func channelName(_ index: Int, of channels: Int) -> String {
    channels == 1 ? "bench" : "bench\(index)"
  }

  private func line(_ text: String) -> [UInt8] { Array((text + (kind == .redis ? "\r\n" : "\n")).utf8) }

  func incr(_ channel: String) -> [UInt8] { line("INCR \(channel)") }
  /// An INCR with an id of its own (badged's `id=`).
  func incr(_ channel: String, id: String) -> [UInt8] { line("INCR \(channel) id=\(id)") }
  /// Redis's stand-in for a change seen by watchers: the message is `v<value>`.
  func publish(_ channel: String, value: Int) -> [UInt8] { line("PUBLISH \(channel) v\(value)") }
  func get(_ channel: String) -> [UInt8] { line("GET \(channel)") }
  func subscribe(_ channel: String) -> [UInt8] { line(kind == .redis ? "SUBSCRIBE \(channel)" : "WATCH \(channel)") }
  var ping: [UInt8] { line("PING") }

  enum LineKind { case reply, error, data }

  /// badged ends each reply with `OK…` or `ERR…`; every Redis reply used here is one line
  /// (`:n`, `+PONG`) or an error (`-ERR …`). Anything else is a data line.
  func classify(_ line: UnsafeRawBufferPointer) -> LineKind {
    guard let first = line.first else { return .data }
    switch kind {
    case .badged:
      if line.starts(with: "OK".utf8) { return .reply }
      if line.starts(with: "ERR".utf8) { return .error }
      return .data
    case .redis:
      if first == UInt8(ascii: ":") || first == UInt8(ascii: "+") { return .reply }
      if first == UInt8(ascii: "-") { return .error }
      return .data
    }
  }

  /// The count a watcher's line shows for the fan-out channel (badged: `EVENT bench count=n`
  /// or `STATE bench count=n`; Redis: the message `v<n>`), or nil for any other line.
  func watchedValue(_ line: UnsafeRawBufferPointer) -> Int? {
    switch kind {
    case .redis:
      return line.first == UInt8(ascii: "v") ? Wire.number(line, at: 1) : nil
    case .badged:
      guard line.starts(with: "EVENT bench ".utf8) || line.starts(with: "STATE bench ".utf8) else { return nil }
      return Wire.field("count=", in: line)
    }
  }

  /// Whether a subscriber's line says the subscription is in place: badged's `OK watching`
  /// after the snapshot, Redis's `:1` that ends the `subscribe` confirmation.
  func isSubscribed(_ line: UnsafeRawBufferPointer) -> Bool {
    kind == .redis ? line.first == UInt8(ascii: ":") : line.starts(with: "OK watching".utf8)
  }

  /// The digits after `name` (as `count=`) in a line, as a number.
  static func field(_ name: String, in line: UnsafeRawBufferPointer) -> Int? {
    let key = Array(name.utf8)
    guard line.count > key.count else { return nil }
    for start in 0...(line.count - key.count) where line[start] == key[0] {
      if (0..<key.count).allSatisfy({ line[start + $0] == key[$0] }) { return number(line, at: start + key.count) }
    }
    return nil
  }

  /// The decimal number starting at `index`, ended by the line's end or a non-digit.
  static func number(_ line: UnsafeRawBufferPointer, at index: Int) -> Int? {
    var value = 0
    var i = index
    while i < line.count, line[i] >= 0x30, line[i] <= 0x39 {
      value = value * 10 + Int(line[i] - 0x30)
      i += 1
    }
    return i > index ? value : nil
  }
}
