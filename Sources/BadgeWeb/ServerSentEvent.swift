/// The lines of a Server-Sent Events stream (the WHATWG HTML standard's `text/event-stream`),
/// formatted once per event and shared by every client (`EventRing`).
public enum ServerSentEvent {
  /// An event: `id:` (when given), `event:`, `data:`, and the blank line that ends it. `data`
  /// is one line of JSON; a line end in it (never written by `WebJSON`) is replaced by a space,
  /// since each line would reach the browser as another `data:` line joined with a newline.
  public static func event(_ name: String, id: UInt64? = nil, data: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.utf8.count + name.utf8.count + 32)
    if let id {
      bytes += Array("id: ".utf8)
      bytes += Array(String(id).utf8)
      bytes.append(0x0A)
    }
    bytes += Array("event: ".utf8)
    bytes += Array(name.utf8)
    bytes += Array("\ndata: ".utf8)
    for byte in data.utf8 { bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
    bytes += [0x0A, 0x0A]
    return bytes
  }

  /// The comment sent every `keepalive` seconds on an idle stream, so proxies and phones keep
  /// it open; browsers ignore it.
  public static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)

  /// The first line of every stream: how long a browser waits before it reconnects.
  public static func retry(milliseconds: Int = 1000) -> [UInt8] {
    Array("retry: \(milliseconds)\n\n".utf8)
  }

  /// The event names of the stream (docs/WEB.md).
  public enum Name {
    public static let snapshot = "snapshot"
    public static let change = "change"
    public static let state = "state"
    public static let dnd = "dnd"
    public static let reset = "reset"
    public static let offline = "offline"
  }
}
