import BadgeOptions

/// The command line of `badged-web`: the options of every client program (`ClientOptions`),
/// with its own help.
public enum WebOptions {
  public static let usage = ClientOptions.usage(of: "badged-web")

  public static let help = """
    OVERVIEW: Serves badged's counts to browsers: a page that streams them live and resumes
    where it stopped, and a JSON API for scripts.

    Listens where [web] listen in badged.conf says (127.0.0.1:8787 by default); every request
    needs a token (badgectl web link, badgectl web token). See badged-web(1), docs/WEB.md and
    badged.conf(5).

    USAGE: \(usage)

    OPTIONS:
      --socket <path>         The socket of badged to talk to.
                              (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)
      --config <file>         The config file whose [web] section to read; it must exist.
                              (default: $XDG_CONFIG_HOME/badged/badged.conf)
      --log-level <level>     emerg, alert, crit, err, warning, notice, info or debug.
                              (default: info)
      --version               Show the version.
      -h, --help              Show help information.

    """
}
