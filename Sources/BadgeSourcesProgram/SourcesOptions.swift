import BadgeOptions

/// The command line of `badged-sources`: the options of every client program
/// (`ClientOptions`), with its own help.
public enum SourcesOptions {
  public static let usage = ClientOptions.usage(of: "badged-sources")

  public static let help = """
    OVERVIEW: Keeps badged's channels equal to what they count: Maildirs, notmuch queries,
    commands and files.

    Runs the sources the [source.NAME] sections of badged.conf describe, and sets each one's
    channels to what it finds whenever that changes. See badged-sources(1) and badged.conf(5).

    USAGE: \(usage)

    OPTIONS:
      --socket <path>         The socket of badged to talk to.
                              (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)
      --config <file>         The config file whose [source.NAME] sections to read; it must exist.
                              (default: $XDG_CONFIG_HOME/badged/badged.conf)
      --log-level <level>     emerg, alert, crit, err, warning, notice, info or debug.
                              (default: info)
      --version               Show the version.
      -h, --help              Show help information.

    """
}
