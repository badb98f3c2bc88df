import BadgeCore
import CSystemd
import Glibc

/// Serving objects on the bus: exported objects' method calls answered, signals with any
/// arguments, `PropertiesChanged`, and well-known names with their outcome.
extension BusConnection {
  /// Serves `object` at `path` (`sd_bus_add_object`, ahead of sd-bus's own answers): its
  /// methods, `org.freedesktop.DBus.Properties` (Get, GetAll; Set answers `PropertyReadOnly`)
  /// and `org.freedesktop.DBus.Introspectable` (`BusObject.introspectionXML`). A call to an
  /// unknown interface or method answers `UnknownMethod`. Dropping the slot stops serving.
  public func export(_ object: BusObject, at path: String) throws(SystemError) -> BusSlot {
    let slot = BusSlot(filter: { [weak self] message in
      guard let self else { return false }
      let call = BusMethodCall(
        interface: message.interface ?? "", member: message.member ?? "", path: message.path ?? path,
        sender: message.sender, arguments: message.arguments())
      answer(message, with: object.answer(call, signature: message.signature))
      return true
    })
    var raw: OpaquePointer?
    try checkSD(sd_bus_add_object(self.raw, &raw, path, BusSlot.thunk, slot.userdata), "serve the object \(path)")
    slot.raw = raw
    return slot
  }

  /// Sends `result` as the answer to `call`, unless the caller asked for no reply. A reply that
  /// cannot be built (arguments that do not make the method's type) is sent as `Failed`, so
  /// the caller is never left waiting.
  private func answer(_ call: BusMessage, with result: BusMethodResult) {
    guard sd_bus_message_get_expect_reply(call.raw) > 0 else { return }
    var reply: OpaquePointer?
    switch result {
    case .reply(let arguments):
      do throws(SystemError) {
        try checkSD(sd_bus_message_new_method_return(call.raw, &reply), "create a method return")
        var builder = BusMessageBuilder(raw: reply!)
        for argument in arguments { try builder.append(argument) }
      } catch {
        sd_bus_message_unref(reply)
        reply = nil
        return answer(call, with: .error(name: BusErrorName.failed, message: error.description))
      }
    case .error(let name, let message):
      var error = sd_bus_error()
      defer { sd_bus_error_free(&error) }
      _ = sd_bus_error_set(&error, name, message)
      guard sd_bus_message_new_method_error(call.raw, &reply, &error) >= 0 else { return }
    }
    defer { sd_bus_message_unref(reply) }
    if sd_bus_send(raw, reply, nil) >= 0 { sent() }
  }

  /// Emits a signal whose body is `arguments`.
  public func emitSignal(path: String, interface: String, member: String, arguments: [BusArgument])
    throws(SystemError)
  {
    try emitSignal(path: path, interface: interface, member: member) { (builder) throws(SystemError) in
      for argument in arguments { try builder.append(argument) }
    }
  }

  /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged(interface, changed a{sv},
  /// invalidated as)`; `changed` goes in the order of its names, so the signal is the same
  /// for the same change.
  public func emitPropertiesChanged(
    path: String, interface: String, changed: [String: BusArgument], invalidated: [String]
  ) throws(SystemError) {
    let entries = changed.sorted { $0.key < $1.key }.map { BusArgument.dictEntry(.string($0.key), .variant($0.value)) }
    try emitSignal(
      path: path, interface: BusObject.properties, member: "PropertiesChanged",
      arguments: [
        .string(interface), .array(element: "{sv}", entries), .array(element: "s", invalidated.map { .string($0) }),
      ])
  }

  /// Asks for a well-known name without waiting: `reply(true)` once this connection is its
  /// primary owner (or already was), `reply(false)` when it is queued, someone else keeps it,
  /// or the bus refused.
  public func requestName(_ name: String, flags: BusNameFlags, reply: @escaping (Bool) -> Void)
    throws(SystemError) -> BusSlot
  {
    try requestName(
      name, flags: flags,
      handler: { message in
        guard message.kind == .methodReturn, case .unsigned(let outcome)? = message.arguments().first else {
          return reply(false)
        }
        // RequestName's answers: 1 primary owner, 2 in the queue, 3 exists, 4 already the owner.
        reply(outcome == 1 || outcome == 4)
      })
  }
}
