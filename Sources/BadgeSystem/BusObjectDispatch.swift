import BadgeCore

/// The D-Bus errors an exported object answers with.
public enum BusErrorName {
  public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
  public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
  public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
  public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
  public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
  public static let failed = "org.freedesktop.DBus.Error.Failed"
}

extension BusObject {
  /// The answer to `call`, whose body has the signature `signature`: the object's own methods,
  /// `Properties` (Get, GetAll; Set is refused: every property is read-only) and
  /// `Introspectable`. Arguments that do not make the method's in signature are `InvalidArgs`,
  /// and the handler is not called; a reply that does not make its out signature is `Failed`.
  public func answer(_ call: BusMethodCall, signature: String) -> BusMethodResult {
    func expecting(_ expected: String, _ body: () -> BusMethodResult) -> BusMethodResult {
      guard signature == expected else {
        return .error(
          name: BusErrorName.invalidArgs,
          message: "\(call.interface).\(call.member) takes '\(expected)', not '\(signature)'")
      }
      return body()
    }
    switch (call.interface, call.member) {
    case (Self.introspectable, "Introspect"):
      return expecting("") { .reply([.string(introspectionXML)]) }
    case (Self.properties, "Get"):
      return expecting("ss") {
        let names = Self.strings(call.arguments)
        guard names.count >= 2 else {
          return .error(name: BusErrorName.invalidArgs, message: "Get takes an interface and a property name")
        }
        return get(interface: names[0], property: names[1])
      }
    case (Self.properties, "GetAll"):
      return expecting("s") {
        guard let name = Self.strings(call.arguments).first else {
          return .error(name: BusErrorName.invalidArgs, message: "GetAll takes an interface name")
        }
        return getAll(interface: name)
      }
    case (Self.properties, "Set"):
      return expecting("ssv") {
        let names = Self.strings(call.arguments)
        guard names.count >= 2 else {
          return .error(name: BusErrorName.invalidArgs, message: "Set takes an interface and a property name")
        }
        let (name, property) = (names[0], names[1])
        guard lookUp(interface: name, property: property) != nil else { return unknown(name, property) }
        return .error(name: BusErrorName.propertyReadOnly, message: "\(name).\(property) is read-only")
      }
    default:
      guard let method = interface(call.interface)?.methods.first(where: { $0.name == call.member }) else {
        return .error(
          name: BusErrorName.unknownMethod, message: "no method \(call.interface).\(call.member) at \(call.path)")
      }
      return expecting(method.inSignature) { Self.checked(method.handler(call), of: method, in: call.interface) }
    }
  }

  /// `result`, unless it is a reply that does not make the method's out signature: then an
  /// error that says so, rather than a body the caller would misread.
  private static func checked(_ result: BusMethodResult, of method: Interface.Method, in interface: String)
    -> BusMethodResult
  {
    guard case .reply(let arguments) = result else { return result }
    let signature = arguments.map(\.signature).joined()
    guard signature == method.outSignature else {
      return .error(
        name: BusErrorName.failed,
        message: "\(interface).\(method.name) answered '\(signature)', not its '\(method.outSignature)'")
    }
    return result
  }

  /// The leading string arguments of a call.
  private static func strings(_ arguments: [BusValue]) -> [String] {
    var strings: [String] = []
    for case .string(let text) in arguments { strings.append(text) }
    return strings
  }

  private func lookUp(interface name: String, property: String) -> Interface.Property? {
    interface(name)?.properties.first { $0.name == property }
  }

  private func unknown(_ interface: String, _ property: String) -> BusMethodResult {
    .error(name: BusErrorName.unknownProperty, message: "no property \(interface).\(property)")
  }

  private func get(interface name: String, property: String) -> BusMethodResult {
    guard let found = lookUp(interface: name, property: property) else { return unknown(name, property) }
    return Self.variant(of: found, in: name).map { .reply([$0]) } ?? Self.mistyped(found, in: name)
  }

  /// Every property of the interface named `name` (of every interface when `name` is empty).
  private func getAll(interface name: String) -> BusMethodResult {
    let chosen = name.isEmpty ? interfaces : interfaces.filter { $0.name == name }
    guard !chosen.isEmpty else {
      return .error(name: BusErrorName.unknownInterface, message: "no interface \(name)")
    }
    var entries: [BusArgument] = []
    for interface in chosen {
      for property in interface.properties {
        guard let value = Self.variant(of: property, in: interface.name) else {
          return Self.mistyped(property, in: interface.name)
        }
        entries.append(.dictEntry(.string(property.name), value))
      }
    }
    return .reply([.array(element: "{sv}", entries)])
  }

  /// The property's value in a variant, or `nil` when the value is not of the property's type.
  private static func variant(of property: Interface.Property, in interface: String) -> BusArgument? {
    let value = property.value()
    return value.signature == property.signature ? .variant(value) : nil
  }

  private static func mistyped(_ property: Interface.Property, in interface: String) -> BusMethodResult {
    .error(
      name: BusErrorName.failed,
      message: "\(interface).\(property.name) is declared '\(property.signature)' but its value is not")
  }
}
