import BadgeCore

/// A method call being served, and what it carried (valid during the handler only).
public struct BusMethodCall {
  public let interface: String
  public let member: String
  public let path: String
  /// The caller's unique name.
  public let sender: String?
  /// The call's arguments, as `BusMessage.arguments()` reads them (variants unwrapped).
  public let arguments: [BusValue]

  public init(interface: String, member: String, path: String, sender: String?, arguments: [BusValue]) {
    self.interface = interface
    self.member = member
    self.path = path
    self.sender = sender
    self.arguments = arguments
  }
}

/// How a served method call is answered.
public enum BusMethodResult: Sendable {
  /// A method return whose body is these arguments (their signatures must make the method's
  /// out signature).
  case reply([BusArgument])
  /// An error reply (`org.freedesktop.DBus.Error.Failed`, or an interface's own).
  case error(name: String, message: String)
}

/// An object served on the bus (`BusConnection.export`): interfaces with properties, read each
/// time a caller asks for them (closures, so the object never holds a stale copy), methods,
/// and the signals it emits (listed for introspection only; they are sent with
/// `BusConnection.emitSignal`).
public final class BusObject {
  /// One D-Bus interface of the object.
  public struct Interface {
    /// A read-only property: its name, signature and current value.
    public typealias Property = (name: String, signature: String, value: () -> BusArgument)
    /// A method: its name, in and out signatures and handler. A call whose arguments do not
    /// make `inSignature` is answered `InvalidArgs` without calling the handler.
    public typealias Method = (
      name: String, inSignature: String, outSignature: String, handler: (BusMethodCall) -> BusMethodResult
    )
    /// A signal the object emits: its name and signature.
    public typealias Signal = (name: String, signature: String)

    public var name: String
    /// In order, for `GetAll` and introspection.
    public var properties: [Property]
    public var methods: [Method]
    public var signals: [Signal]

    public init(name: String, properties: [Property] = [], methods: [Method] = [], signals: [Signal] = []) {
      self.name = name
      self.properties = properties
      self.methods = methods
      self.signals = signals
    }
  }

  public let interfaces: [Interface]

  static let properties = "org.freedesktop.DBus.Properties"
  static let introspectable = "org.freedesktop.DBus.Introspectable"

  public init(interfaces: [Interface]) { self.interfaces = interfaces }

  /// The interface named `name`.
  func interface(_ name: String) -> Interface? { interfaces.first { $0.name == name } }

  /// The standard interfaces every export serves, as introspection lists them (Peer is
  /// sd-bus's; the others are answered by `answer(_:signature:)`, not by these handlers).
  static var standardInterfaces: [Interface] {
    func method(_ name: String, _ inSignature: String, _ outSignature: String) -> Interface.Method {
      (name, inSignature, outSignature, { _ in .error(name: BusErrorName.failed, message: "") })
    }
    return [
      Interface(
        name: "org.freedesktop.DBus.Peer", methods: [method("Ping", "", ""), method("GetMachineId", "", "s")]),
      Interface(name: introspectable, methods: [method("Introspect", "", "s")]),
      Interface(
        name: properties,
        methods: [method("Get", "ss", "v"), method("GetAll", "s", "a{sv}"), method("Set", "ssv", "")],
        signals: [(name: "PropertiesChanged", signature: "sa{sv}as")]),
    ]
  }

  /// The object's `org.freedesktop.DBus.Introspectable.Introspect` answer: the standard
  /// interfaces, then its own.
  public var introspectionXML: String {
    var xml = """
      <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
      <node>

      """
    for interface in Self.standardInterfaces + interfaces {
      xml += " <interface name=\"\(interface.name)\">\n"
      for method in interface.methods {
        xml += "  <method name=\"\(method.name)\">\n"
        for type in BusArgument.completeTypes(of: method.inSignature) {
          xml += "   <arg type=\"\(type)\" direction=\"in\"/>\n"
        }
        for type in BusArgument.completeTypes(of: method.outSignature) {
          xml += "   <arg type=\"\(type)\" direction=\"out\"/>\n"
        }
        xml += "  </method>\n"
      }
      for signal in interface.signals {
        xml += "  <signal name=\"\(signal.name)\">\n"
        for type in BusArgument.completeTypes(of: signal.signature) { xml += "   <arg type=\"\(type)\"/>\n" }
        xml += "  </signal>\n"
      }
      for property in interface.properties {
        xml += "  <property name=\"\(property.name)\" type=\"\(property.signature)\" access=\"read\"/>\n"
      }
      xml += " </interface>\n"
    }
    return xml + "</node>\n"
  }
}
