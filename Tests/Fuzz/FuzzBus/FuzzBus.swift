import BadgeBus
import BadgeConfig
import BadgeCore

/// libFuzzer target: what the session bus can hand the daemon's links to it, as bytes, through
/// those links' decisions as the daemon takes them: reading a LauncherEntry `Update`'s body,
/// merging and clamping its properties in the bounded `LauncherEntryTable`, and counting
/// notifications from `Notify` calls, their answers and `NotificationClosed` and
/// `ActionInvoked` signals, each change applied to a `Store` with small limits.
///
/// Input layout: deliveries until the bytes run out, each an operation byte (taken modulo 7),
/// its senders (a byte each: connection `:1.<byte % 8>`), serials (a byte each) and a body in
/// `BusBytes`' form:
/// 0. an `Update` from a sender, with its body;
/// 1. a sender leaves the bus;
/// 2. a `Notify` call from a caller, with its serial and body;
/// 3. an answer from a server to a caller's serial, with its body;
/// 4. a `NotificationClosed` from a sender, with its body;
/// 5. an `ActionInvoked` from a sender, with its body;
/// 6. the bus is lost and the notification daemon's name changes hands: everything is
///    forgotten.
///
/// Checked beyond "never crashes": the table never holds more apps than its limit, no pool of
/// channels passes its limit and the pools add up to the channels kept, a count is within
/// `0 ... Limits.maxCount`, the counter remembers no more than its bound, and no close or
/// action from a connection that never answered a call takes anything off.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBus(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = BusBytes(Array(UnsafeBufferPointer(start: data, count: size))[...])
  var links = BusLinks()
  while let operation = input.byte() {
    guard links.deliver(operation % 7, &input) else { break }
    links.check()
  }
  return 0
}

/// The session-bus links' state over one input, and the daemon's handling of each delivery.
private struct BusLinks {
  static let maxApps = 6
  let store: Store
  var table = LauncherEntryTable()
  var counter = NotificationCounter()
  /// The connections that answered a call, which alone may take a notification off.
  var servers = Set<String>()
  var now: UInt64 = 0

  init() {
    var config = DaemonConfig()
    config.limits.maxChannels = 3
    config.bridge.maxChannels = 4
    config.bridge.maxApps = Self.maxApps
    config.notifications.maxChannels = 4
    store = Store(config: config.channels)
  }

  static func connection(_ byte: UInt8) -> String { ":1.\(byte % 8)" }

  /// Carries out one delivery; `false` when the input ended inside it.
  mutating func deliver(_ operation: UInt8, _ input: inout BusBytes) -> Bool {
    now += 1000
    switch operation {
    case 0:
      guard let sender = input.byte().map(Self.connection), let (signature, values) = input.body() else { return false }
      guard let update = try? LauncherEntryUpdate(signature: signature, arguments: { values }) else { return true }
      guard let effect = table.update(update, from: sender, limit: Self.maxApps) else {
        precondition(table.appCount == Self.maxApps, "an update was refused below the limit")
        return true
      }
      if let count = effect.count {
        precondition((0...Limits.maxCount).contains(count), "count \(count) out of range")
        if (try? store.apply(.write(.set(count)), to: update.channel, now: now)) == nil {
          table.forget(update.channel, from: sender)
        }
      }
      if effect.urgent { _ = store.pulse(update.channel, now: now) }
    case 1:
      guard let sender = input.byte().map(Self.connection) else { return false }
      _ = table.senderLeft(sender)
    case 2:
      guard let caller = input.byte().map(Self.connection), let serial = input.byte(), let (_, values) = input.body()
      else { return false }
      if let channel = counter.notify(caller: caller, serial: UInt64(serial), arguments: values) {
        _ = try? store.apply(.write(.incr(1)), to: channel, now: now)
      }
    case 3:
      guard let server = input.byte().map(Self.connection), let caller = input.byte().map(Self.connection),
        let serial = input.byte(), let (_, values) = input.body()
      else { return false }
      servers.insert(server)
      counter.answered(server: server, caller: caller, replySerial: UInt64(serial), arguments: values)
    case 4, 5:
      guard let sender = input.byte().map(Self.connection), let (_, values) = input.body() else { return false }
      let done =
        operation == 4
        ? counter.closed(sender: sender, arguments: values) : counter.actionInvoked(sender: sender, arguments: values)
      precondition(done == nil || servers.contains(sender), "\(sender) took a notification off without showing one")
      if let done { _ = try? store.apply(.write(.decr(1)), to: done, now: now) }
    default:
      _ = table.allSendersLeft()
      counter.reset()
    }
    return true
  }

  func check() {
    precondition(table.appCount <= Self.maxApps, "\(table.appCount) apps tracked")
    var kept = ChannelPool.Counts()
    for channel in store.channels {
      kept[ChannelPool(of: channel)] += 1
      precondition((0...Limits.maxCount).contains(channel.count), "count \(channel.count)")
      if let state = table.state(of: channel.name) {
        precondition((0...Limits.maxCount).contains(state.count), "merged count \(state.count)")
      }
    }
    precondition(kept == store.pooled, "the pools do not add up to the channels kept")
    for pool in ChannelPool.allCases {
      precondition(store.pooled[pool] <= store.config.channelLimit(of: pool).value, "\(pool) past its limit")
    }
    let remembered = counter.remembered
    precondition(
      remembered.calls <= NotificationCounter.memoryLimit && remembered.notifications <= NotificationCounter.memoryLimit
    )
  }
}
