import BadgeCore
import BadgeLog
import BadgeProtocol

/// The bridge's requests: the owners' states of mirrored channels put here (`MIRROR`,
/// `STALE`), the forward outbox taken (`FORWARDS`, `DELIVERED`), the bridge's state (`BRIDGE`);
/// each change on the path of every change (`apply`), so it is saved, undone and published as
/// a client's is.
extension CommandExecutor {
  /// Carries out a request of the bridge's; one only the bridge may send is refused from any
  /// other connection with `not-bridge`.
  func bridgeRequest(_ request: Request, _ client: Client, now: UInt64) {
    if request.isBridgeOnly && !bridge.isBridge(client) {
      ReplyEncoder.appendError(
        ProtocolError(.notBridge, "Only the bridge's connection (BRIDGE host=<host>) sends this"),
        to: &client.output)
      return
    }
    switch request {
    case .bridge(.query): appendBridgeState(to: client)
    case .bridge(.attach(let host)):
      guard bridge.attach(client, host: host) else {
        ReplyEncoder.appendError(
          ProtocolError(.bridgeTaken, "Another connection is the bridge already; one at a time"), to: &client.output)
        return
      }
      logger.info("Client \(client.id) is the bridge of host '\(host)'.")
      bridgeNamed()
      ReplyEncoder.appendOK(to: &client.output)
    case .bridge(.status(let status)):
      bridge.report(status)
      ReplyEncoder.appendOK(to: &client.output)
    case .mirror(let name, let update): mirror(name, update, client, now: now)
    case .forgetMirror(let name): forgetMirror(name, client, now: now)
    case .stale(let host, let stale, let since):
      let seconds = since ?? Int(turn.wallMilliseconds() / 1000)
      if setStale(stale, since: seconds, ownedBy: host, by: client, now: now) {
        ReplyEncoder.appendOK(to: &client.output)
      }
    case .forwards:
      commit.observed(by: client)
      for entry in store.outbox.entries { ReplyEncoder.appendForward(entry, to: &client.output) }
      commit.forwardsListed()
      commit.forwardTarget = client
      ReplyEncoder.appendOK(to: &client.output)
    case .delivered(let id): delivered(id, client, now: now)
    case .remoteDND(let change): remoteDND(change, client, now: now)
    default: preconditionFailure("not a bridge request")
    }
  }

  /// `BRIDGE`: `BRIDGE attached=0 forwards=<n>` without a bridge, else `BRIDGE attached=1
  /// host=<host> connected=<0|1> broker=<url> pending=<n> forwards=<n> error=<text>` (what it
  /// last reported; `connected=0` and no broker until it does; `error=` last, only when there
  /// is one, since it may hold spaces). `full=<owner>[,<owner>…]` after `forwards` names the
  /// owners whose room in the outbox is full, while one is.
  private func appendBridgeState(to client: Client) {
    var line = "BRIDGE attached=\(bridge.client == nil ? 0 : 1)"
    if bridge.client != nil {
      let status = bridge.status ?? BridgeStatus(connected: false)
      line += " host=\(bridge.host) connected=\(status.connected ? 1 : 0)"
      line += " broker=\(status.broker) pending=\(status.pending)"
    }
    line += " forwards=\(store.outbox.count)"
    let full = store.outbox.fullOwners
    if !full.isEmpty { line += " full=" + full.joined(separator: ",") }
    if let error = bridge.status?.error, !error.isEmpty { line += " error=\(error)" }
    ReplyEncoder.appendData(line, to: &client.output)
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// `MIRROR <channel> owner= count= …`: the owner's state replaces the local view (pending
  /// stays while the outbox holds writes to it), and the owner's pulse window runs here too.
  private func mirror(_ name: ChannelName, _ update: MirrorUpdate, _ client: Client, now: UInt64) {
    do throws(ChangeRefusal) {
      var (shown, line) = try apply(.mirror(update), to: name, by: client, id: nil, now: now)
      var channel = shown.channel
      if update.pulseMs > 0, let pulsed = store.pulse(name, for: update.pulseMs, now: now) {
        channel = pulsed
        line = commit.stage(pulsed)
      }
      appendState(channel, line: line, to: client, now: now)
      ReplyEncoder.appendOK(to: &client.output)
    } catch {
      if case .refused(.full) = error {
        // The broker decides how many channels the bridge asks for: a line per refusal would
        // let it fill the journal too.
        warnings.log(
          .warning, error.warningReason("the MQTT bridge"), now: now,
          "Not showing '\(name)' from \(update.owner): \(error).", [.channel(name)])
      }
      appendRefusal(error, command: .mirror, name, client)
    }
  }

  /// `MIRROR <channel> forget`: the owner stopped sharing it; a mirrored channel is forgotten
  /// (writes to it still waiting stay in the outbox, for the bridge to settle), one never
  /// mirrored is left as it is.
  private func forgetMirror(_ name: ChannelName, _ client: Client, now: UInt64) {
    let channel = store.channel(named: name)
    guard channel.mirror != nil else {
      if channel.isListed {
        ReplyEncoder.appendError(
          ProtocolError(.localChannel, "'\(name)' is a channel of this machine, not a mirror"), to: &client.output)
        return
      }
      appendState(channel, to: client, now: now)
      ReplyEncoder.appendOK(to: &client.output)
      return
    }
    do throws(ChangeRefusal) {
      let (outcome, line) = try apply(.forgetMirror, to: name, by: client, id: nil, now: now)
      appendState(outcome.channel, line: line, to: client, now: now)
      ReplyEncoder.appendOK(to: &client.output)
    } catch {
      appendRefusal(error, command: .mirror, name, client)
    }
  }

  /// Makes the channels mirrored from `owner` (every mirrored channel: `nil`) stale since
  /// `since`, or fresh, each with a state line in `client`'s reply when there is one. Returns
  /// false, having replied with the error, when changes cannot be saved.
  @discardableResult
  func setStale(_ stale: Bool, since: Int, ownedBy owner: String?, by client: Client?, now: UInt64) -> Bool {
    for channel in store.mirrored(ownedBy: owner) {
      guard var mirror = channel.mirror, mirror.stale != stale || (stale && mirror.since != since) else { continue }
      mirror.stale = stale
      mirror.since = stale ? since : 0
      do throws(ChangeRefusal) {
        let (outcome, line) = try apply(.mirrorState(mirror), to: channel.name, by: client, id: nil, now: now)
        if let client { appendState(outcome.channel, line: line, to: client, now: now) }
      } catch {
        if let client { appendRefusal(error, command: .stale, channel.name, client) }
        return false
      }
    }
    return true
  }

  /// `DELIVERED <id>`: the write leaves the outbox, saved like a change; its channel stops
  /// being pending when no other write to it waits. An id that is not waiting (delivered
  /// already, as a bridge that lost the reply sends it again) is answered `OK not-pending`.
  private func delivered(_ id: String, _ client: Client, now: UInt64) {
    if refuseChange(client) { return }
    guard let entry = store.deliver(id) else {
      ReplyEncoder.appendOK("not-pending", to: &client.output)
      return
    }
    commit.delivered(id, by: client)
    if !store.outbox.hasPending(entry.channel), var mirror = store.channel(named: entry.channel).mirror,
      mirror.pending
    {
      mirror.pending = false
      _ = try? apply(.mirrorState(mirror), to: entry.channel, by: client, id: nil, now: now)
    }
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// The error reply for a change that was not made.
  func appendRefusal(_ error: ChangeRefusal, command: Request.Command, _ name: ChannelName, _ client: Client) {
    ReplyEncoder.appendError(error.reply(to: command, on: name), to: &client.output)
  }
}
