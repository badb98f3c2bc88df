import BadgeCore
import BadgeLog
import BadgeProtocol

/// The sources program's requests: `SOURCES attach`, claims and releases of channels, each
/// source's state (which makes its channels stale or fresh) and the program's config, and the
/// listing any client may ask for (`SOURCES`); and the rules the connection's role gives other
/// requests: another connection's report of a claimed channel is refused (`sourced`), and a
/// clear up to a total of a `mark-read` channel is handed to the program (`CLEARED`).
extension CommandExecutor {
  /// Carries out a request of the sources program's; one only the sources connection may send
  /// is refused from any other connection with `not-sources`.
  func sourcesRequest(_ request: Request, _ client: Client, now: UInt64) {
    if request.isSourcesOnly && !sources.isSources(client) {
      ReplyEncoder.appendError(
        ProtocolError(.notSources, "Only the sources connection (SOURCES attach) sends this"), to: &client.output)
      return
    }
    switch request {
    case .sources(.query): appendSourcesListing(to: client)
    case .sources(.attach):
      guard sources.attach(client) else {
        ReplyEncoder.appendError(
          ProtocolError(.sourcesTaken, "Another connection is the sources program already; one at a time"),
          to: &client.output)
        return
      }
      logger.info("Client \(client.id) is the sources program.")
      ReplyEncoder.appendOK(to: &client.output)
    case .sources(.config(let error)):
      if error != sources.configError {
        if let error {
          logger.warning("The sources program cannot use its config: \(error)")
        } else if sources.configError != nil {
          logger.info("The sources program reads its config again.")
        }
      }
      sources.reportConfig(error: error)
      ReplyEncoder.appendOK(to: &client.output)
    case .source(let source, .claim(let name, let markRead)):
      changeMark(of: name, client, now: now) { () throws(Store.MutationError) in
        let outcome = try store.claim(name, by: source, now: now)
        sources.claimed(name, markRead: markRead)
        return outcome
      }
    case .source(let source, .release(let name)):
      changeMark(of: name, client, now: now) { () throws(Store.MutationError) in
        let outcome = try store.release(name, by: source, now: now)
        sources.released(name)
        return outcome
      }
    case .source(let source, .status(let status)):
      let before = sources.report(status)
      if status.makesStale != (before?.makesStale ?? false) {
        if refuseChange(client) { return }
        markStale(status.makesStale, source: source, by: client, now: now)
      }
      ReplyEncoder.appendOK(to: &client.output)
    case .source(let source, .stopped):
      sources.stopped(source)
      ReplyEncoder.appendOK(to: &client.output)
    default: preconditionFailure("not a sources request")
    }
  }

  /// A source's report (`SET … new=`) of `name`: refused with `sourced` from any connection but
  /// the sources program's when a source counts the channel; else carried out as any write.
  func report(_ write: ChannelWrite, of name: ChannelName, id: RequestID?, _ client: Client, now: UInt64) {
    if let source = store.channel(named: name).source, !sources.isSources(client) {
      appendRefusal(.refused(.sourced(source: source.name)), command: .set, name, client)
      return
    }
    mutate(.write(write), name, id: id, client, now, command: .set)
  }

  /// After a change of a claimed channel: a clear up to a total (a click, or a click on another
  /// machine forwarded here) is handed to its source when it marks read (`CLEARED`), whether or
  /// not anything was left to mark seen here.
  func sourcedChannelWritten(_ mutation: Store.Mutation, _ channel: Channel) {
    guard case .write(.clear(let upTo?)) = mutation, let target = sources.client,
      sources.handsOverClears(of: channel.name)
    else { return }
    ReplyEncoder.appendCleared(channel.name, upTo: upTo, to: &target.output)
    subscriptions.sendQueue.add(target)
  }

  /// Marks the channels of `source` (every claimed channel when `nil`) stale since now, or
  /// fresh, each change saved and published.
  func markStale(_ stale: Bool, source: String?, by client: Client?, now: UInt64) {
    let seconds = Int(turn.wallMilliseconds() / 1000)
    store.markSources(source, stale: stale, since: seconds, now: now) { outcome in
      _ = commit.changed(outcome, by: client)
    }
  }

  /// `SOURCES`: `SOURCES attached=<0|1> sources=<n>[ config_error=<text>]`, then each source's
  /// last report, `SOURCE <name> kind=… state=… …`, then `OK`.
  private func appendSourcesListing(to client: Client) {
    let overview = SourcesOverview(
      attached: sources.client != nil, sources: sources.statuses.count, configError: sources.configError)
    ReplyEncoder.appendData(overview.line, to: &client.output)
    for status in sources.statuses { ReplyEncoder.appendData(status.listing, to: &client.output) }
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// A claim or a release: `change` made, saved and published, and the channel's state in the
  /// reply; its refusal (`mirrored`, `claimed`, `full`) replied otherwise.
  private func changeMark(
    of name: ChannelName, _ client: Client, now: UInt64, _ change: () throws(Store.MutationError) -> Store.Outcome
  ) {
    if refuseChange(client) { return }
    do throws(Store.MutationError) {
      let outcome = try change()
      let line = outcome.changed ? commit.changed(outcome, by: client) : nil
      appendState(outcome.channel, line: line, to: client, now: now)
      ReplyEncoder.appendOK(to: &client.output)
    } catch {
      appendRefusal(.refused(error), command: .source, name, client)
    }
  }
}
