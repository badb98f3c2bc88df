import BadgeClient
import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeSources
import BadgeSystem

/// badged-sources' world around its core: the daemon's connection (`DaemonClient`), each
/// source's inotify instance (`WatchTable`), its listings and renames (`FolderIO`), its
/// commands (`ExecRunner`), its notmuch database (`NotmuchWorker`), its IMAP connections
/// (`ImapAccount`), the boot-time timer and the resume watch feed `SourcesCore`, and what it
/// asks for is done here, in the order asked.
///
/// Everything that comes in (a reply's line, a pushed line, events, a command's output, a
/// timer, a signal) runs through `work`, one piece at a time: an answer made while the core's
/// actions are carried out (a listing) is handed to the core once they all are, never inside.
final class SourcesRuntime {
  let loop: EventLoop
  let core: SourcesCore
  /// Made once `self` is, as its events come back through it.
  private var daemon: DaemonClient!
  let logger: Logger
  let work = SerialWork()
  /// Reads the config file again (SIGHUP, `RELOADED`).
  private let readConfig: () -> Result<SourcesConfig, ConfigError>
  private var tables: [String: WatchTable] = [:]
  /// Each `exec` source's command while it runs.
  var runs: [String: ExecRunner] = [:]
  /// Each notmuch source's database worker, with the settings it was made for.
  var notmuchWorkers: [String: (settings: NotmuchSettings, worker: NotmuchWorker)] = [:]
  /// Each IMAP source's connections.
  var imapAccounts: [String: ImapAccount] = [:]
  private var timer: TimerSource?
  private var resume: ResumeWatch?

  /// How many requests may await the daemon's replies: more than the program ever has in
  /// flight (a claim and a write per channel, a status per source), so none is refused.
  static let requestLimit = 1 << 20

  init(
    loop: EventLoop, config: SourcesConfig, socketPath: String, logger: Logger,
    readConfig: @escaping () -> Result<SourcesConfig, ConfigError>
  ) throws(SystemError) {
    self.loop = loop
    self.logger = logger
    self.readConfig = readConfig
    var random = SystemRandomNumberGenerator()
    core = SourcesCore(
      config: config, home: Array(Environment.home.utf8), random: random.next(),
      at: ResumeWatch.now())
    timer = try loop.addTimer(clock: .boottime) { [unowned self] in feed(.tick) }
    daemon = DaemonClient(
      socket: socketPath, loop: loop, limit: SourcesRuntime.requestLimit,
      log: { line in logger.log(line.level, line.text) },
      onEvent: { [unowned self] event in daemonEvent(event) })
    resume = try ResumeWatch(loop: loop, logger: logger) { [unowned self] cause, time in
      feed(.resumed(cause), at: time)
    }
  }

  /// Starts every source (each counts) and connects to badged; fails only when the loop cannot
  /// take the connection's retry timer.
  func start() throws(SystemError) {
    var failure: SystemError?
    work.run { [unowned self] in
      core.start()
      perform()
      do throws(SystemError) { try daemon.start() } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Ends every command's process group and closes the daemon's connection and the watches.
  func stop() {
    for run in runs.values { run.stop() }
    for held in notmuchWorkers.values { held.worker.stop() }
    notmuchWorkers = [:]
    for account in imapAccounts.values { account.stop() }
    imapAccounts = [:]
    daemon.stop()
    for table in tables.values { table.close() }
    tables = [:]
  }

  /// Reads the config again and reloads as it says (SIGHUP).
  func reload() {
    let result = readConfig()
    work.run { [unowned self] in
      core.handle(.reload(result), at: ResumeWatch.now())
      dropNotmuchWorkers(keeping: core.config)
      perform()
    }
  }

  /// The program was stopped and continued (SIGCONT): it may have missed changes.
  func continued() {
    resume?.continued()
  }

  /// How many inotify watches the sources hold.
  var watchCount: Int { tables.values.reduce(0) { $0 + $1.count } }

  /// `input` to the core, now or once the work running returns.
  func feed(_ input: SourceInput, at time: SourceTime? = nil) {
    work.run { [unowned self] in
      core.handle(input, at: time ?? ResumeWatch.now())
      perform()
    }
  }

  // MARK: The daemon

  private func daemonEvent(_ event: DaemonClient.Event) {
    switch event {
    case .connected: feed(.daemonConnected)
    case .disconnected: feed(.daemonClosed)
    case .received(.cleared(let channel, let upTo)): feed(.daemon(.cleared(channel, upto: upTo)))
    case .received(.reloaded): feed(.daemon(.reloaded))
    case .received: break
    }
  }

  /// Sends one of the core's requests; its reply goes back to the core as the answer it is.
  /// With no connection up it is not sent: the core sends its writes again on the next.
  private func send(_ request: SourcesDaemonRequest) {
    var states: [ChannelSnapshot] = []
    daemon.send(request.request, id: request.id) { [unowned self] reply in
      guard case .line(let line) = reply else { return }
      switch line {
      case .state(let snapshot): states.append(snapshot)
      case .ok, .error:
        if let answer = SourcesRuntime.answer(to: request, line, states: states) { feed(.daemon(answer)) }
      default: break
      }
    }
  }

  /// What the reply to `request` ending in `status` tells the core, after its state lines
  /// `states`: a claim's channel count and total, a write's total (also when it was a repeat),
  /// `LIST`'s channels that sources claim, or a refusal; nothing for the other requests' `OK`.
  static func answer(
    to request: SourcesDaemonRequest, _ status: ReplyLine, states: [ChannelSnapshot]
  ) -> SourcesDaemonAnswer? {
    if case .error(let code, let message) = status {
      return .refused(id: request.id, reason: message.isEmpty ? code : "\(code) \(message)")
    }
    let state = states.last
    switch request.request {
    case .list:
      var claims: [ChannelName: String] = [:]
      for snapshot in states {
        // A mirror's source is its owner's, on another machine: not this program's to let go.
        guard let source = snapshot.source, snapshot.mirror == nil, let channel = ChannelName(snapshot.channel)
        else { continue }
        claims[channel] = source.name
      }
      return .sourceChannels(claims)
    case .source(_, .claim(let channel, _)):
      return .claimed(channel, count: state?.count ?? 0, total: state?.total ?? 0)
    case .write:
      guard let id = request.id else { return nil }
      return .answered(id: id, total: state?.total ?? 0)
    default:
      return nil
    }
  }

  // MARK: The core's actions

  /// Carries out the core's actions in order, then those they led to.
  private func perform() {
    var actions = core.takeActions()
    while !actions.isEmpty {
      for action in actions { perform(action) }
      actions = core.takeActions()
    }
  }

  private func perform(_ action: SourceAction) {
    switch action {
    case .watch(let source, let tag, let path, let purpose): watch(source, tag, path, purpose)
    case .unwatch(let source, let tag):
      guard let table = tables[source] else { return }
      table.unwatch(tag)
      if table.count == 0 {
        table.close()
        tables[source] = nil
      }
    case .list(let source, let tag, let path):
      feed(.listed(source: source, tag: tag, FolderIO.list(path)))
    case .rename(_, let from, let to):
      if let fault = FolderIO.rename(from: from, to: to) { logger.warning(fault) }
    case .notmuch(let source, let job): notmuch(source, job)
    case .imap(let source, let job): imap(source, job)
    case .spawn(let source): spawn(source)
    case .kill(let source): runs[source]?.stop()
    case .request(let request): send(request)
    case .status(let text): ServiceManager.notifyStatus(text)
    case .log(let level, let text): logger.log(level, text)
    case .reloadConfig: reload()
    case .armTimer(let at): timer?.schedule(at: at)
    }
  }

  /// Watches `path` in the source's own inotify instance, made at its first watch.
  private func watch(_ source: String, _ tag: WatchTag, _ path: [UInt8], _ purpose: WatchPurpose) {
    do {
      let table = try tables[source] ?? makeTable(source)
      tables[source] = table
      try table.watch(tag, path: path, purpose: purpose)
    } catch InotifyWatchError.watchLimitReached {
      logger.warning(
        "Cannot watch \(FolderIO.text(path)) for source '\(source)': the user's inotify watches are at "
          + "fs.inotify.max_user_watches.")
    } catch {
      // A folder not there (yet) is told by the listing that follows the watch.
      logger.debug("Not watching \(FolderIO.text(path)) for source '\(source)': \(error).")
    }
  }

  private func makeTable(_ source: String) throws(SystemError) -> WatchTable {
    try WatchTable(
      source: source, loop: loop,
      onEvents: { [unowned self] events in feed(.fsEvents(source: source, events)) },
      onFailure: { [unowned self] error in
        logger.error("Cannot read the inotify events of source '\(source)': \(error); recounting.")
        feed(.fsEvents(source: source, [.overflow]))
      })
  }
}
