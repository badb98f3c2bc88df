import CSystemd
import Glibc

/// Tells the service manager how the daemon is doing, over the `sd_notify` protocol.
///
/// Every call is a no-op when the daemon was not started by a service manager that listens
/// (`NOTIFY_SOCKET` unset), so the daemon calls them unconditionally. See sd_notify(3).
public enum ServiceManager {
  /// Whether a service manager listens for notifications (`NOTIFY_SOCKET` is set).
  public static var isListening: Bool { Environment.value("NOTIFY_SOCKET") != nil }

  /// Startup is complete and the socket is served: `READY=1`, with the first status line.
  public static func notifyReady(status: String) {
    notify("READY=1\nSTATUS=\(status)")
  }

  /// A reload starts: `RELOADING=1` with the monotonic time (`MONOTONIC_USEC=`, which
  /// systemd 253 and later want for `Type=notify-reload`). Follow it with `notifyReady`.
  public static func notifyReloading() {
    notify("RELOADING=1\nMONOTONIC_USEC=\(Environment.monotonicMicroseconds)\nSTATUS=Reloading configuration")
  }

  /// Shutdown starts: `STOPPING=1`.
  public static func notifyStopping() {
    notify("STOPPING=1\nSTATUS=Shutting down")
  }

  /// A one-line summary for `systemctl status`: `STATUS=`.
  public static func notifyStatus(_ status: String) {
    notify("STATUS=\(status)")
  }

  /// Sends `state` (newline-separated `KEY=value` assignments) with `sd_notify`.
  ///
  /// - Returns: whether it was sent; `false` when nobody listens or the send failed, which the
  ///   daemon ignores (a lost status line must never stop it).
  @discardableResult
  public static func notify(_ state: String) -> Bool {
    sd_notify(0, state) > 0
  }
}
