import BadgeCore
import BadgeLog
import BadgeMesh
import CMosquitto
import Glibc

/// libmosquitto's results and MQTT 5 reason codes in the words of `LinkFailure`.
enum MosquittoFailures {
  /// A connect attempt's result (`mosquitto_connect_bind_v5`), with the `errno` it left.
  static func connect(_ rc: Int32, errno: Int32, tlsErrors: [String]) -> LinkFailure {
    switch rc {
    case MOSQ_ERR_ERRNO.rawValue: return .unreachable(String(cString: strerror(errno)))
    case MOSQ_ERR_EAI.rawValue:
      return .unreachable("cannot resolve the host name: \(String(cString: gai_strerror(errno)))")
    case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue: return .certificate(tls(tlsErrors))
    default: return .unreachable(String(cString: mosquitto_strerror(rc)))
    }
  }

  static func unreachable(_ text: String) -> LinkFailure { .unreachable(text) }

  /// A CONNACK that refused: credentials and authorisation apart from the rest.
  static func connack(_ reason: Int32) -> LinkFailure {
    let words = String(cString: mosquitto_reason_string(reason))
    switch reason {
    case Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue), Int32(MQTT_RC_NOT_AUTHORIZED.rawValue),
      Int32(MQTT_RC_BANNED.rawValue),
      Int32(MQTT_RC_BAD_AUTHENTICATION_METHOD.rawValue):
      return .credentials(words)
    default:
      return .refused(words)
    }
  }

  /// Why a connection closed: a libmosquitto error (1 to 127) or the broker's MQTT 5 reason
  /// code (128 and up) in its DISCONNECT.
  static func disconnect(_ rc: Int32, handshaking: Bool, tlsErrors: [String]) -> LinkFailure {
    if rc == Int32(MQTT_RC_SESSION_TAKEN_OVER.rawValue) { return .takenOver }
    if rc >= 128 { return .lost("the broker disconnected: \(String(cString: mosquitto_reason_string(rc)))") }
    switch rc {
    case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue: return .certificate(tls(tlsErrors))
    case MOSQ_ERR_KEEPALIVE.rawValue: return .lost("no answer within the keepalive")
    case MOSQ_ERR_CONN_LOST.rawValue:
      // A broker that closes during the handshake usually refused the TLS client (or speaks
      // no TLS on that port).
      return handshaking && !tlsErrors.isEmpty ? .certificate(tls(tlsErrors)) : .lost("the connection was closed")
    case MOSQ_ERR_ERRNO.rawValue: return .lost(String(cString: strerror(Glibc.errno)))
    default: return .lost(String(cString: mosquitto_strerror(rc)))
    }
  }

  /// OpenSSL's reasons as libmosquitto logged them (`OpenSSL Error[0]: error:0A000086:SSL
  /// routines::certificate verify failed`, `Error: host name verification failed.`), without
  /// their codes, each once.
  static func tls(_ lines: [String]) -> String {
    var reasons: [String] = []
    for line in lines {
      var reason = Substring(line)
      if line.contains("::"), let last = line.split(separator: "::", omittingEmptySubsequences: false).last {
        reason = last
      } else if line.hasPrefix("Error: ") {
        reason = line.dropFirst(7)
      }
      let text = String(reason.trimmingCharacters(in: [" ", "."]))
      if !text.isEmpty && !reasons.contains(text) { reasons.append(text) }
    }
    return reasons.isEmpty ? "the TLS handshake failed" : reasons.joined(separator: "; ")
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Set<Character>) -> Substring {
    var text = self
    while let first = text.first, set.contains(first) { text = text.dropFirst() }
    while let last = text.last, set.contains(last) { text = text.dropLast() }
    return text
  }
}
