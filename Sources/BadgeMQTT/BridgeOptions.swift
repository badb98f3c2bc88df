import BadgeOptions

/// The command line of `badged-mqtt`: the options of every client program (`ClientOptions`),
/// with its own help.
public enum BridgeOptions {
  public static let usage = ClientOptions.usage(of: "badged-mqtt")

  public static let help = """
    OVERVIEW: Shares badged's channels with other machines through an MQTT 5 broker.

    Owns the channels [mqtt] share names (publishes their counts, carries out the writes other
    machines send them), shows the channels other machines share, and delivers the writes made
    here to their owners. See badged-mqtt(1), badged.conf(5) and docs/MQTT.md.

    USAGE: \(usage)

    OPTIONS:
      --socket <path>         The socket of badged to talk to.
                              (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)
      --config <file>         The config file whose [mqtt] section to read; it must exist.
                              (default: $XDG_CONFIG_HOME/badged/badged.conf)
      --log-level <level>     emerg, alert, crit, err, warning, notice, info or debug.
                              (default: info)
      --version               Show the version.
      -h, --help              Show help information.

    """
}
