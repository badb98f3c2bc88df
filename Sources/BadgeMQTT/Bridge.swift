import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeMesh
import BadgeMosquitto
import BadgeOptions
import BadgeSystem
import Glibc

/// `badged-mqtt` from start to exit, told in order: read the command line, the `[mqtt]`
/// section and the files it names; connect to badged and to the broker and keep both up;
/// leave the broker with the last will on SIGTERM.
public enum Bridge {
  /// Exit statuses (sysexits.h where one fits), as badged's.
  public enum ExitStatus {
    public static let success: CInt = 0
    /// Could not start (the event loop, the MQTT client).
    public static let failure: CInt = 1
    public static let usage: CInt = 64
    /// The config file, a file it names, or the host name is not usable: `EX_CONFIG`.
    public static let config: CInt = 78
  }

  /// How long the broker keeps a bridge's session after it went (7 days): the writes sent to an
  /// owner while it is away wait for it, in order, and so do the answers to a mirror.
  static let sessionExpirySeconds: UInt32 = 7 * 24 * 3600

  public static func main(_ arguments: [String]) -> CInt {
    Signals.block([SIGTERM, SIGINT, SIGHUP])
    Signals.ignoreBrokenPipe()

    let options: ClientOptions
    switch ProgramOptions.start(
      program: "badged-mqtt", usage: BridgeOptions.usage, help: BridgeOptions.help, version: BadgedVersion.current,
      { () throws(ProgramOptions.UsageError) in try ClientOptions.parse(arguments) })
    {
    case .exit(let status): return status
    case .run(let parsed): options = parsed
    }

    let logger = Logger(level: options.logLevel, identifier: "badged-mqtt")
    let config: MeshConfig
    let secrets: BrokerSecrets
    do throws(ConfigError) {
      config = try loadConfig(path: options.configFile ?? XDGPaths.defaultConfigFile)
      secrets = try BrokerSecrets.load(config)
    } catch {
      logger.error("Failed to load configuration: \(error)")
      return ExitStatus.config
    }
    let socketPath = options.socketPath ?? XDGPaths.defaultSocket

    do {
      let loop = try EventLoop()
      let session = try MosquittoSession(loop: loop, options: mosquittoOptions(config, secrets))
      let runtime = try BridgeRuntime(
        loop: loop, config: config, session: session, socketPath: socketPath, logger: logger)
      let stop = {
        ServiceManager.notifyStopping()
        logger.info("Shutting down.")
        runtime.stop()
        loop.exit(code: 0)
      }
      let signals = [
        try loop.addSignal(SIGTERM, stop),
        try loop.addSignal(SIGINT, stop),
        try loop.addSignal(SIGHUP) {
          logger.notice("A changed [mqtt] section takes effect when badged-mqtt starts again; ignoring SIGHUP.")
        },
      ]
      logger.info(
        "Bridging badged at \(socketPath) as \(config.host) to \(config.broker) under \(config.prefix)/.")
      if let warning = config.accountWarning { logger.warning(warning) }
      try runtime.start()
      ServiceManager.notifyReady(status: "Connecting to \(config.broker)")
      _ = loop.enableWatchdog()
      let status = try loop.run()
      withExtendedLifetime((signals, runtime)) {}
      if session.phase == .connecting {
        // A connect attempt's thread may be inside OpenSSL (a TLS handshake) and cannot be
        // stopped; `exit` would run OpenSSL's exit handlers, which free what that thread uses.
        // What this process had to say is said: end it without those handlers.
        fflush(nil)
        _exit(status)
      }
      return status
    } catch let error as MosquittoSetupError {
      logger.error("\(error)")
      return ExitStatus.config
    } catch {
      logger.error("\(error)")
      return ExitStatus.failure
    }
  }

  /// The `[mqtt]` section of the file at `path`, which must exist.
  public static func loadConfig(path: String) throws(ConfigError) -> MeshConfig {
    try MeshConfig.parse(IniFile.read(path: path), file: path, defaults: machineDefaults)
  }

  /// This machine's name (`Environment.hostName`, the daemon's too) and the user's login name,
  /// for `host` and `prefix`.
  static var machineDefaults: MeshConfig.Defaults {
    let userName =
      getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? String(getuid())
    return MeshConfig.Defaults(hostName: Environment.hostName, userName: userName)
  }

  /// What libmosquitto is told: the client id, the broker, TLS as the URL says, the
  /// credentials, the last will (`offline`, retained), the session and the largest packet.
  static func mosquittoOptions(_ config: MeshConfig, _ secrets: BrokerSecrets) -> MosquittoOptions {
    let topics = MeshTopics(prefix: config.prefix, host: config.host)
    return MosquittoOptions(
      clientID: "badged-mqtt:\(config.host):\(config.prefix)", host: config.broker.host, port: config.broker.port,
      keepaliveSeconds: config.keepaliveSeconds,
      tls: config.broker.tls
        ? MosquittoOptions.TLS(caFile: config.caFile, certFile: config.certFile, keyFile: config.keyFile) : nil,
      username: config.username, password: secrets.password,
      will: MeshMessage(topic: topics.ownStatus, payload: Array("offline".utf8), retain: true),
      sessionExpirySeconds: sessionExpirySeconds, maximumPacketSize: UInt32(MeshLimits.maxPacketBytes))
  }
}
