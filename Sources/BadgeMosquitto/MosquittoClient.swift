import BadgeMesh
import CMosquitto
import Glibc

/// How to reach the broker and what to tell it on connecting.
public struct MosquittoOptions: Sendable {
  public var clientID: String
  public var host: String
  public var port: Int
  public var keepaliveSeconds: Int
  /// TLS, when the broker is `mqtts://`; never turned off once asked for.
  public var tls: TLS?
  public var username: String?
  public var password: String?
  /// The last will: published (retained, QoS 1) by the broker when the connection dies.
  public var will: MeshMessage
  /// How long the broker keeps this client's session (its subscriptions and the QoS 1
  /// messages for it) after a disconnection.
  public var sessionExpirySeconds: UInt32
  /// The largest packet this client takes; the broker drops larger ones instead of sending them.
  public var maximumPacketSize: UInt32

  public struct TLS: Sendable {
    /// The certificates the broker's is checked against; the system's store when `nil`.
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?

    public init(caFile: String?, certFile: String?, keyFile: String?) {
      self.caFile = caFile
      self.certFile = certFile
      self.keyFile = keyFile
    }
  }

  public init(
    clientID: String, host: String, port: Int, keepaliveSeconds: Int, tls: TLS?, username: String?, password: String?,
    will: MeshMessage, sessionExpirySeconds: UInt32, maximumPacketSize: UInt32
  ) {
    self.clientID = clientID
    self.host = host
    self.port = port
    self.keepaliveSeconds = keepaliveSeconds
    self.tls = tls
    self.username = username
    self.password = password
    self.will = will
    self.sessionExpirySeconds = sessionExpirySeconds
    self.maximumPacketSize = maximumPacketSize
  }

  /// The folder of the system's CA certificates, for a client certificate without `ca_file`
  /// (libmosquitto takes a client certificate only together with CA files).
  static let systemCertificates = "/etc/ssl/certs"
}

/// libmosquitto set up for the options, a thin owner of its `struct mosquitto *`: MQTT 5, the
/// will, credentials and TLS set before any connection; its callbacks only note what happened
/// (`events`), for the caller to take after each library call, so that nothing runs inside
/// the library's own dispatch.
final class MosquittoClient {
  let handle: OpaquePointer
  /// What the library reported since the caller last took it.
  var events: [Event] = []
  /// The error lines libmosquitto (and OpenSSL through it) logged since `clearErrors`: the
  /// only place a TLS failure is explained.
  private(set) var errorLines: [String] = []

  enum Event {
    /// The CONNACK: its reason code (0: accepted) and whether the broker kept the session.
    case connack(reason: Int32, sessionPresent: Bool)
    /// The connection ended: a libmosquitto error or an MQTT 5 reason code.
    case disconnected(Int32)
    case message(IncomingMessage)
  }

  /// Initialises the library (once per process) and creates a client; the error says what
  /// libmosquitto refused.
  init(_ options: MosquittoOptions) throws(MosquittoSetupError) {
    MosquittoClient.initialiseLibrary
    // clean_session false: with MQTT 5 it is the clean start flag, and the session outlives a
    // disconnection for `sessionExpirySeconds`.
    guard let handle = mosquitto_new(options.clientID, false, nil) else {
      throw MosquittoSetupError("Failed to create an MQTT client: \(String(cString: strerror(errno)))")
    }
    self.handle = handle
    mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
    do throws(MosquittoSetupError) {
      try configure(options)
    } catch {
      mosquitto_destroy(handle)
      throw error
    }
    setCallbacks()
  }

  deinit { mosquitto_destroy(handle) }

  /// `mosquitto_lib_init`, once: it sets up OpenSSL, before any thread of ours starts.
  private static let initialiseLibrary: Void = { _ = mosquitto_lib_init() }()

  private func configure(_ options: MosquittoOptions) throws(MosquittoSetupError) {
    func check(_ rc: Int32, _ what: String) throws(MosquittoSetupError) {
      guard rc == MOSQ_ERR_SUCCESS.rawValue else {
        throw MosquittoSetupError("Failed to \(what): \(String(cString: mosquitto_strerror(rc)))")
      }
    }
    try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "ask for MQTT 5")
    try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "turn off Nagle's algorithm")
    if let username = options.username {
      try check(mosquitto_username_pw_set(handle, username, options.password), "set the user name and password")
    }
    if let tls = options.tls {
      if tls.caFile == nil {
        try check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "use the system's CA certificates")
      }
      if tls.caFile != nil || tls.certFile != nil {
        let capath = tls.caFile == nil ? MosquittoOptions.systemCertificates : nil
        try check(
          mosquitto_tls_set(handle, tls.caFile, capath, tls.certFile, tls.keyFile, nil),
          "set up TLS with the certificates")
      }
      // Certificates are checked, host name included (libmosquitto's default, never turned off).
      try check(mosquitto_tls_opts_set(handle, 1, nil, nil), "require the broker's certificate")
    }
    let will = options.will
    try check(
      will.payload.withUnsafeBytes {
        mosquitto_will_set_v5(handle, will.topic, Int32($0.count), $0.baseAddress, 1, will.retain, nil)
      }, "set the last will")
  }

  private func setCallbacks() {
    mosquitto_connect_v5_callback_set(handle) { _, userdata, reason, flags, _ in
      MosquittoClient.from(userdata).events.append(.connack(reason: reason, sessionPresent: flags & 1 != 0))
    }
    mosquitto_disconnect_v5_callback_set(handle) { _, userdata, rc, _ in
      MosquittoClient.from(userdata).events.append(.disconnected(rc))
    }
    mosquitto_message_v5_callback_set(handle) { _, userdata, message, properties in
      guard let message = message?.pointee else { return }
      MosquittoClient.from(userdata).events.append(.message(MosquittoClient.incoming(message, properties)))
    }
    mosquitto_log_callback_set(handle) { _, userdata, level, text in
      guard level & Int32(MOSQ_LOG_ERR) != 0, let text else { return }
      let client = MosquittoClient.from(userdata)
      if client.errorLines.count < 16 { client.errorLines.append(String(cString: text)) }
    }
  }

  private static func from(_ userdata: UnsafeMutableRawPointer?) -> MosquittoClient {
    Unmanaged<MosquittoClient>.fromOpaque(userdata!).takeUnretainedValue()
  }

  /// A delivered message, copied out of the library's memory with its MQTT 5 response topic
  /// and correlation data.
  private static func incoming(_ message: mosquitto_message, _ properties: OpaquePointer?) -> IncomingMessage {
    let topic = message.topic.map { String(cString: $0) } ?? ""
    let payload =
      message.payloadlen > 0 && message.payload != nil
      ? Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen))) : []
    var responseTopic: String?
    var correlation: [UInt8]?
    if let properties {
      var text: UnsafeMutablePointer<CChar>?
      if mosquitto_property_read_string(properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), &text, false) != nil,
        let text
      {
        responseTopic = String(cString: text)
        free(text)
      }
      var data: UnsafeMutableRawPointer?
      var length: UInt16 = 0
      if mosquitto_property_read_binary(properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &data, &length, false)
        != nil,
        let data
      {
        correlation = Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
        free(data)
      }
    }
    return IncomingMessage(topic: topic, payload: payload, responseTopic: responseTopic, correlation: correlation)
  }

  func clearErrors() { errorLines.removeAll() }

  /// The CONNECT properties: session expiry and the maximum packet size.
  static func connectProperties(_ options: MosquittoOptions) -> OpaquePointer? {
    var properties: OpaquePointer?
    mosquitto_property_add_int32(
      &properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), options.sessionExpirySeconds)
    mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), options.maximumPacketSize)
    return properties
  }

  /// Publishes with QoS 1; false when libmosquitto refused (not connected, too large).
  func publish(_ message: MeshMessage) -> Int32 {
    var properties: OpaquePointer?
    defer { mosquitto_property_free_all(&properties) }
    if let topic = message.responseTopic {
      mosquitto_property_add_string(&properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), topic)
    }
    if let correlation = message.correlation {
      correlation.withUnsafeBytes {
        _ = mosquitto_property_add_binary(
          &properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), $0.baseAddress, UInt16(clamping: $0.count))
      }
    }
    if let expiry = message.expirySeconds {
      mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), expiry)
    }
    return message.payload.withUnsafeBytes {
      mosquitto_publish_v5(handle, nil, message.topic, Int32($0.count), $0.baseAddress, 1, message.retain, properties)
    }
  }

  /// Subscribes to the topic filters with `qos`.
  func subscribe(_ topics: [String], qos: Int32) -> Int32 {
    var pointers = topics.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self) {
        mosquitto_subscribe_multiple(handle, nil, Int32(topics.count), $0.baseAddress, qos, 0, nil)
      }
    }
  }
}

/// Why the MQTT client could not be set up (a file libmosquitto refused, an option).
public struct MosquittoSetupError: Error, CustomStringConvertible, Sendable {
  public let description: String
  init(_ description: String) { self.description = description }
}
