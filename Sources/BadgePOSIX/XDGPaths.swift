/// Where badged keeps its socket, config and state, after the XDG base directory spec.
///
/// One place for these rules, so the daemon and the CLI find the same socket.
public enum XDGPaths {
  /// `$XDG_RUNTIME_DIR/badged`, or `/tmp/badged-$UID` without `XDG_RUNTIME_DIR`.
  public static var runtimeFolder: String {
    if let runtime = Environment.value("XDG_RUNTIME_DIR") { return runtime + "/badged" }
    return "/tmp/badged-\(Environment.userID)"
  }

  /// The socket both programs use unless told otherwise: `BADGED_SOCKET` first (the CLI and
  /// tests use it; so does the daemon, for symmetry), else `<runtimeFolder>/badged.sock`.
  public static var defaultSocket: String {
    Environment.value("BADGED_SOCKET") ?? runtimeFolder + "/badged.sock"
  }

  /// `$XDG_CONFIG_HOME/badged/badged.conf` (`~/.config/badged/badged.conf`).
  public static var defaultConfigFile: String {
    (Environment.value("XDG_CONFIG_HOME") ?? Environment.home + "/.config") + "/badged/badged.conf"
  }

  /// `$XDG_STATE_HOME/badged` (`~/.local/state/badged`).
  public static var defaultStateFolder: String {
    (Environment.value("XDG_STATE_HOME") ?? Environment.home + "/.local/state") + "/badged"
  }

  /// badged-web's tokens, shared with `badgectl web`, unless `[web] tokens_file` says otherwise:
  /// `<defaultStateFolder>/web-tokens`.
  public static var defaultWebTokensFile: String { defaultStateFolder + "/web-tokens" }
}
