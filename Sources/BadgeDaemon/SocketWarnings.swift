import BadgeCore
import BadgeLog

/// The warnings a client can cause over and over at the socket, each a reason of the core's
/// `RepeatedWarnings` (`ServerCore.warn`): the first line goes out, the next ones within the
/// interval are counted, and the count is logged with the next line or when the interval ends.
extension RepeatedWarnings.Reason {
  static let clientsPastLimit = Self("socket: connections refused past [limits] max_clients")
  static let otherUser = Self("socket: connections refused from other users")
  static let outOfDescriptors = Self("socket: accepting paused for want of file descriptors")
  static let acceptFailed = Self("socket: connections that failed to be accepted")
  static let admitFailed = Self("socket: connections that could not be set up")
  static let sendTimeout = Self("socket: clients disconnected past [limits] send_timeout_ms")
}
