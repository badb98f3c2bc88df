import BadgeCore
import BadgeProtocol

/// The stepper's rules: which buttons are enabled and what a press asks of the daemon.
public enum Stepper {
  /// The minus button works above 0.
  public static func canDecrement(_ count: Int) -> Bool { count > 0 }

  /// The plus button works below the largest count.
  public static func canIncrement(_ count: Int) -> Bool { count < Limits.maxCount }

  /// The request a press makes, or `nil` when the button is disabled. An increase never asks
  /// past the largest count (the daemon would refuse it whole); a decrease stops at 0 anyway.
  public static func request(channel: String, count: Int, step: Int, up: Bool) -> Request? {
    guard let name = ChannelName(channel) else { return nil }
    if up {
      guard canIncrement(count) else { return nil }
      return .write(name, .incr(min(step, Limits.maxCount - count)))
    }
    guard canDecrement(count) else { return nil }
    return .write(name, .decr(min(step, Limits.maxCount)))
  }
}
