import BadgeCore
import CSystemd
import Glibc

/// A connection to the session bus (or the system bus, for logind's signals) on an sd-event
/// loop (`sd_bus_attach_event`).
///
/// Only the non-variadic sd-bus calls are used (Swift cannot call C variadics): messages are
/// read with `BusMessage` and built with `BusMessageBuilder`. Handlers are Swift closures held
/// by `BusSlot`s; dropping a slot removes its match, filter or pending call.
public final class BusConnection {
  /// The `sd_bus *`.
  public let raw: OpaquePointer

  /// The loop the connection is attached to.
  private weak var loop: EventLoop?

  private init(raw: OpaquePointer) { self.raw = raw }

  deinit {
    if sd_bus_get_event(raw) != nil { _ = sd_bus_detach_event(raw) }
    sd_bus_flush_close_unref(raw)
  }

  /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` (what
  /// `sd_bus_open_user` uses), or `nil` when neither is set.
  public static var sessionAddress: String? {
    if let address = Environment.value("DBUS_SESSION_BUS_ADDRESS") { return address }
    return Environment.value("XDG_RUNTIME_DIR").map { "unix:path=\($0)/bus" }
  }

  /// Connects to the session bus and attaches the connection to `loop`; without a loop the
  /// connection is for blocking calls only (`callMethodAndWait`, in one-shot commands).
  ///
  /// - Parameter monitor: a connection that will become a monitor (`BecomeMonitor`): sd-bus
  ///   then never answers messages meant for others, which would get a monitor disconnected.
  /// - Throws: `SystemError` when there is no session bus or it cannot be reached.
  public static func session(loop: EventLoop?, description: String, monitor: Bool = false) throws(SystemError)
    -> BusConnection
  {
    guard let address = sessionAddress else {
      throw SystemError(
        "find the session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)", Errno(rawValue: ENOMEDIUM))
    }
    return try connect(to: address, bus: "session bus", loop: loop, description: description, monitor: monitor)
  }

  /// The system bus's address: `DBUS_SYSTEM_BUS_ADDRESS`, else D-Bus's well-known socket (what
  /// `sd_bus_open_system` uses).
  public static var systemAddress: String {
    Environment.value("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/run/dbus/system_bus_socket"
  }

  /// Connects to the system bus at `address` (logind's signals) and attaches the connection to
  /// `loop`.
  ///
  /// - Throws: `SystemError` when the bus cannot be reached (no socket there: `ENOENT`).
  public static func system(loop: EventLoop, description: String, address: String = systemAddress)
    throws(SystemError) -> BusConnection
  {
    try connect(to: address, bus: "system bus", loop: loop, description: description, monitor: false)
  }

  /// Connects to the bus at `address` (a private bus of a test, a bus found elsewhere) and
  /// attaches the connection to `loop`.
  ///
  /// - Throws: `SystemError` when the bus cannot be reached.
  public static func connect(to address: String, loop: EventLoop?, description: String) throws(SystemError)
    -> BusConnection
  {
    try connect(to: address, bus: "bus", loop: loop, description: description, monitor: false)
  }

  private static func connect(
    to address: String, bus name: String, loop: EventLoop?, description: String, monitor: Bool
  ) throws(SystemError) -> BusConnection {
    var bus: OpaquePointer?
    try checkSD(sd_bus_new(&bus), "create a bus connection")
    let connection = BusConnection(raw: bus!)
    try checkSD(sd_bus_set_address(bus, address), "use the \(name) address '\(address)'")
    try checkSD(sd_bus_set_bus_client(bus, 1), "set up the bus connection")
    _ = sd_bus_set_description(bus, description)
    if monitor { try checkSD(sd_bus_set_monitor(bus, 1), "set up a monitor connection") }
    try checkSD(sd_bus_start(bus), "connect to the \(name) at '\(address)'")
    if let loop {
      try checkSD(sd_bus_attach_event(bus, loop.raw, 0), "attach the bus connection to the event loop")
      connection.loop = loop
    }
    return connection
  }

  /// This connection's unique name (`:1.42`), once the bus has answered `Hello`.
  public var uniqueName: String? {
    var name: UnsafePointer<CChar>?
    guard sd_bus_get_unique_name(raw, &name) >= 0, let name else { return nil }
    return String(cString: name)
  }

  /// Calls `handler` with every message that matches `rule` (a D-Bus match rule), once the bus
  /// has installed the match (`sd_bus_add_match_async`, so the loop never waits for it).
  public func addMatch(_ rule: String, _ handler: @escaping (BusMessage) -> Void) throws(SystemError) -> BusSlot {
    let slot = BusSlot(handler: handler)
    var raw: OpaquePointer?
    try checkSD(
      sd_bus_add_match_async(self.raw, &raw, rule, BusSlot.thunk, nil, slot.userdata), "add the bus match \(rule)")
    slot.raw = raw
    awaitsReply()
    return slot
  }

  /// Calls `handler` with every message the connection receives, before matches see it:
  /// a monitor's messages, and sd-bus's own `Disconnected` when the bus goes away. The filter
  /// added last runs first; when it returns true, the message is handled and goes no further
  /// (in particular sd-bus does not answer a method call meant for someone else, which would
  /// get a monitor disconnected).
  public func addFilter(_ handler: @escaping (BusMessage) -> Bool) throws(SystemError) -> BusSlot {
    let slot = BusSlot(filter: handler)
    var raw: OpaquePointer?
    try checkSD(sd_bus_add_filter(self.raw, &raw, BusSlot.thunk, slot.userdata), "add a bus filter")
    slot.raw = raw
    return slot
  }

  /// Asks for a well-known name without waiting for the answer; `flags` are `BusNameFlags`.
  public func requestName(_ name: String, flags: BusNameFlags) throws(SystemError) -> BusSlot {
    try requestName(name, flags: flags, handler: { _ in })
  }

  /// Asks for a well-known name; `handler` gets the bus's answer (`RequestName`'s reply).
  func requestName(_ name: String, flags: BusNameFlags, handler: @escaping (BusMessage) -> Void)
    throws(SystemError) -> BusSlot
  {
    let slot = BusSlot(handler: handler)
    var raw: OpaquePointer?
    try checkSD(
      sd_bus_request_name_async(self.raw, &raw, name, flags.rawValue, BusSlot.thunk, slot.userdata),
      "request the bus name \(name)")
    slot.raw = raw
    awaitsReply()
    return slot
  }

  /// Emits a signal built by `body`.
  public func emitSignal(
    path: String, interface: String, member: String, _ body: (inout BusMessageBuilder) throws(SystemError) -> Void
  ) throws(SystemError) {
    var message: OpaquePointer?
    try checkSD(
      sd_bus_message_new_signal(raw, &message, path, interface, member), "create the signal \(interface).\(member)")
    defer { sd_bus_message_unref(message) }
    var builder = BusMessageBuilder(raw: message!)
    try body(&builder)
    try checkSD(sd_bus_send(raw, message, nil), "send the signal \(interface).\(member)")
    sent()
  }

  /// A message was sent: sd-bus wrote it at once, unless the socket was full or others were
  /// queued before it; then the loop's next `sd_event_prepare` must watch for room (sd-bus
  /// asks for it in its prepare callback).
  func sent() {
    if sd_bus_get_events(raw) & CInt(POLLOUT) != 0 { loop?.mustPrepare = true }
  }

  /// A call now waits for its reply, whose timeout sd-bus arms in its prepare callback.
  private func awaitsReply() {
    loop?.mustPrepare = true
  }

  /// Calls a method; `reply` gets the answer (or the error) when it arrives, unless the slot
  /// was dropped first. Without `reply` nothing waits for an answer.
  public func callMethod(
    destination: String, path: String, interface: String, member: String,
    _ body: (inout BusMessageBuilder) throws(SystemError) -> Void, reply: ((BusMessage) -> Void)? = nil
  ) throws(SystemError) -> BusSlot? {
    var message: OpaquePointer?
    try checkSD(
      sd_bus_message_new_method_call(raw, &message, destination, path, interface, member),
      "create the call \(interface).\(member)")
    defer { sd_bus_message_unref(message) }
    var builder = BusMessageBuilder(raw: message!)
    try body(&builder)
    guard let reply else {
      _ = sd_bus_message_set_expect_reply(message, 0)
      try checkSD(sd_bus_send(raw, message, nil), "call \(interface).\(member)")
      sent()
      return nil
    }
    let slot = BusSlot(handler: reply)
    var rawSlot: OpaquePointer?
    try checkSD(
      sd_bus_call_async(raw, &rawSlot, message, BusSlot.thunk, slot.userdata, 0), "call \(interface).\(member)")
    slot.raw = rawSlot
    awaitsReply()
    return slot
  }

  /// Calls a method and waits for the answer, at most `timeout` microseconds (for one-shot
  /// commands, never in the daemon).
  ///
  /// - Throws: `BusCallError` with the bus's error name and message when the call fails.
  public func callMethodAndWait(
    destination: String, path: String, interface: String, member: String, timeout: UInt64,
    _ body: (inout BusMessageBuilder) throws(SystemError) -> Void
  ) throws(BusCallError) {
    var message: OpaquePointer?
    var error = sd_bus_error()
    defer { sd_bus_error_free(&error) }
    do throws(SystemError) {
      try checkSD(
        sd_bus_message_new_method_call(raw, &message, destination, path, interface, member),
        "create the call \(interface).\(member)")
      var builder = BusMessageBuilder(raw: message!)
      try body(&builder)
    } catch {
      sd_bus_message_unref(message)
      throw BusCallError(name: "", message: error.description)
    }
    defer { sd_bus_message_unref(message) }
    var reply: OpaquePointer?
    let result = sd_bus_call(raw, message, timeout, &error, &reply)
    sd_bus_message_unref(reply)
    if result < 0 {
      let name = error.name.map { String(cString: $0) } ?? ""
      let text = error.message.map { String(cString: $0) } ?? String(cString: strerror(-result))
      throw BusCallError(name: name, message: text)
    }
  }
}

/// A failed method call: the D-Bus error name (`org.freedesktop.DBus.Error.ServiceUnknown`)
/// and its message.
public struct BusCallError: Error, Sendable, CustomStringConvertible {
  public let name: String
  public let message: String

  public init(name: String, message: String) {
    self.name = name
    self.message = message
  }

  public var description: String { name.isEmpty ? message : "\(message) (\(name))" }
}

/// Flags of `RequestName`.
public struct BusNameFlags: OptionSet, Sendable {
  public let rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  /// A later owner asking for replacement takes the name over.
  public static let allowReplacement = BusNameFlags(rawValue: UInt64(SD_BUS_NAME_ALLOW_REPLACEMENT))
  /// Wait in the queue while someone else owns the name.
  public static let queue = BusNameFlags(rawValue: UInt64(SD_BUS_NAME_QUEUE))
}

/// A match, filter or pending call with its handler: active until released or cancelled.
public final class BusSlot {
  var raw: OpaquePointer?
  private let handler: (BusMessage) -> Bool

  init(handler: @escaping (BusMessage) -> Void) {
    self.handler = {
      handler($0)
      return false
    }
  }
  init(filter: @escaping (BusMessage) -> Bool) { self.handler = filter }

  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  static let thunk: sd_bus_message_handler_t = { message, userdata, _ in
    let slot = Unmanaged<BusSlot>.fromOpaque(userdata!).takeUnretainedValue()
    return withExtendedLifetime(slot) { slot.handler(BusMessage(raw: message!)) ? 1 : 0 }
  }

  /// Removes the match, filter or pending call.
  public func cancel() {
    if let raw { sd_bus_slot_unref(raw) }
    raw = nil
  }

  deinit { cancel() }
}
