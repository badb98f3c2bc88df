import BadgeOptions

/// The command line of `badged-tray`: the options of every client program (`ClientOptions`),
/// with its own help.
public enum TrayOptions {
  public static let usage = ClientOptions.usage(of: "badged-tray")

  public static let help = """
    OVERVIEW: Shows badged's counts in the desktop's tray: GNOME (with the AppIndicator
    extension), KDE Plasma, Xfce, Cinnamon, MATE, Budgie and Waybar.

    Registers one StatusNotifierItem per word of [tray] items in badged.conf, draws each group's
    badge into its icon, animated, and keeps it equal to the counts. See badged-tray(1) and
    badged.conf(5).

    USAGE: \(usage)

    OPTIONS:
      --socket <path>         The socket of badged to talk to.
                              (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)
      --config <file>         The config file whose [tray] section to read; it must exist.
                              (default: $XDG_CONFIG_HOME/badged/badged.conf)
      --log-level <level>     emerg, alert, crit, err, warning, notice, info or debug.
                              (default: info)
      --version               Show the version.
      -h, --help              Show help information.

    """
}
