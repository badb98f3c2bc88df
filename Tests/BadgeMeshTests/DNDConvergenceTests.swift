import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeMesh

/// Shared do-not-disturb converges: two or three machines, each a bridge's `SharedDND` and a
/// daemon that keeps do-not-disturb by the daemon's rules, changes made in every order, the
/// broker's deliveries, the daemons' reports and the bridges' requests interleaved in many
/// ways. Whatever the interleaving, every daemon ends on the greatest change made (by time,
/// then host), with the same `until`, and every machine's retained state says that change.
@Suite struct DNDConvergenceTests {
  /// A change asked of one machine's daemon (`DND on`, `DND off`, `DND on 5m`).
  enum Kind: CaseIterable { case on, off, onFor5m }

  static let hosts = ["desktop", "laptop", "nas"]

  /// Every order of every mix of `count` changes, the i-th made on machine i, each order run
  /// under `schedules` schedules, with one clock for all and with clocks apart.
  static func checkAll(changes count: Int, schedules: Int) {
    var kinds: [[Kind]] = [[]]
    for _ in 0..<count { kinds = kinds.flatMap { mix in Kind.allCases.map { mix + [$0] } } }
    for mix in kinds {
      for order in permutations(Array(0..<count)) {
        for seed in 1...schedules {
          for skewed in [false, true] {
            var mesh = SimulatedMesh(hosts: Array(hosts.prefix(count)), skewed: skewed, seed: UInt64(seed))
            mesh.settle()
            for index in order { mesh.make(mix[index], on: index) }
            mesh.settle()
            mesh.check("\(mix) in the order \(order), schedule \(seed), clocks apart: \(skewed)")
          }
        }
      }
    }
  }

  /// 9 mixes, 2 orders, 16 schedules, 2 clocks: 576 runs.
  @Test func twoChangesConvergeInEveryInterleaving() { Self.checkAll(changes: 2, schedules: 16) }

  /// 27 mixes, 6 orders, 3 schedules, 2 clocks: 972 runs.
  @Test func threeChangesConvergeInEveryInterleaving() { Self.checkAll(changes: 3, schedules: 3) }

  /// The issue's cases, by hand: a newer `off` reaches a machine already on; an older `on 5m`
  /// reaches a machine on a newer `on`. Both end on the newer change, and once five minutes
  /// pass, both are still on.
  @Test func theNewerChangeWinsOnAMachineAlreadyInThatState() {
    var mesh = SimulatedMesh(hosts: ["desktop", "laptop"], skewed: false, seed: 1)
    mesh.settle()
    mesh.make(.onFor5m, on: 0)
    mesh.make(.on, on: 1)
    mesh.settle()
    mesh.check("on 5m, then on")
    #expect(mesh.machines.allSatisfy { $0.on && $0.until == 0 })
    mesh.advance(ms: 300_001)
    #expect(mesh.machines.allSatisfy { $0.on })
  }

  /// A timed end is the same wall-clock instant on every machine; it ends there, and its end is
  /// no change: nothing is published again.
  @Test func aTimedEndIsTheSameEverywhereAndPublishesNothing() {
    var mesh = SimulatedMesh(hosts: ["desktop", "laptop"], skewed: false, seed: 3)
    mesh.settle()
    mesh.make(.onFor5m, on: 1)
    mesh.settle()
    mesh.check("on 5m")
    #expect(mesh.machines.allSatisfy { $0.until == SimulatedMesh.start + 300_000 })
    let published = mesh.publications
    mesh.advance(ms: 300_000)
    #expect(mesh.machines.allSatisfy { !$0.on })
    #expect(mesh.publications == published)
  }
}

/// Every order of `items`.
func permutations<T>(_ items: [T]) -> [[T]] {
  guard items.count > 1 else { return [items] }
  return items.indices.flatMap { i in
    var rest = items
    let first = rest.remove(at: i)
    return permutations(rest).map { [first] + $0 }
  }
}

/// One machine of `SimulatedMesh`: its daemon's do-not-disturb, and its bridge.
struct SimulatedMachine {
  let host: String
  /// How far this machine's wall clock is ahead of the mesh's, in milliseconds.
  let skewMs: Int64
  var dnd: SharedDND
  var on = false
  /// Wall-clock milliseconds when a timed one ends; 0 when untimed or off.
  var until: Int64 = 0
  var stamp: DNDStamp?
  /// What the daemon pushed and its bridge has not read yet.
  var reports: [DaemonLink.LocalDND] = []
  /// What the bridge asked of the daemon and the daemon has not read yet.
  var requests: [RemoteDND] = []
  /// What the broker delivers to this machine, per publishing machine, in order.
  var inbox: [[DNDState]]

  /// The daemon's report of its state at `now`, as its `*` line says it.
  func report(now: Int64) -> DaemonLink.LocalDND {
    DaemonLink.LocalDND(
      on: on, leftMs: until > now ? Int(until - now) : 0, from: stamp?.remote == true ? stamp?.host : nil,
      at: stamp.map { Int64($0.at) })
  }
}

/// Machines sharing do-not-disturb through a broker, run one step at a time in an order a
/// seeded generator picks among the steps that can go: a daemon reads a request, a bridge reads
/// a report, a bridge reads a message. The daemons follow the daemon's rules: a change made
/// there is stamped no earlier than one past its last and only when it changes something;
/// another machine's change is taken when its stamp is greater than the last, also when it
/// changes nothing.
struct SimulatedMesh {
  static let start: Int64 = 1_764_620_000_000

  var machines: [SimulatedMachine]
  /// The mesh's clock.
  var now = start
  /// Every state published, by machine, the last one the retained one.
  var publications: [[String]]
  /// The greatest change any daemon made; before any, the greatest of the states never changed,
  /// which every machine publishes as made at `DNDState.neverChanged`.
  var greatest: DNDStamp
  private var random: UInt64
  private let skewed: Bool

  init(hosts: [String], skewed: Bool, seed: UInt64) {
    self.skewed = skewed
    random = seed &* 0x9E37_79B9_7F4A_7C15
    machines = hosts.enumerated().map { index, host in
      SimulatedMachine(
        host: host, skewMs: skewed ? Int64(index) * -3 : 0,
        dnd: SharedDND(config: meshConfig(host: host, dnd: .shared), topics: MeshTopics(prefix: "p", host: host)),
        inbox: Array(repeating: [], count: hosts.count))
    }
    publications = Array(repeating: [], count: hosts.count)
    greatest = DNDStamp(at: UInt64(DNDState.neverChanged), host: hosts.max()!)
    for index in machines.indices {
      var outbox = MeshOutbox()
      let time = self.time(of: index)
      machines[index].dnd.reported(machines[index].report(now: time.wallMs), links: links(), at: time, into: &outbox)
      machines[index].dnd.synced(into: &outbox)
      take(outbox.takeActions(), from: index)
    }
  }

  func time(of index: Int) -> MeshTime {
    MeshTime(monotonic: 1_000_000, wallMs: now + machines[index].skewMs)
  }

  /// A change asked of machine `index`'s daemon, as `badgectl dnd` asks it.
  mutating func make(_ kind: DNDConvergenceTests.Kind, on index: Int) {
    let wall = time(of: index).wallMs
    let wanted: (on: Bool, until: Int64) =
      switch kind {
      case .on: (true, 0)
      case .off: (false, 0)
      case .onFor5m: (true, wall + 300_000)
      }
    var machine = machines[index]
    if skewed { now += 1 }
    guard wanted != (machine.on, machine.until) else { return }  // the daemon changes nothing
    let last = machine.stamp.map { Int64($0.at) + 1 } ?? 0
    let stamp = DNDStamp(at: UInt64(max(wall, last)), host: machine.host)
    (machine.on, machine.until, machine.stamp) = (wanted.on, wanted.until, stamp)
    machine.reports.append(machine.report(now: wall))
    machines[index] = machine
    if greatest < stamp { greatest = stamp }
  }

  /// Runs steps until none is left.
  mutating func settle() {
    while true {
      var steps: [(Int, Int)] = []  // (machine, 0: request, 1: report, 2 + n: message from n)
      for (index, machine) in machines.enumerated() {
        if !machine.requests.isEmpty { steps.append((index, 0)) }
        if !machine.reports.isEmpty { steps.append((index, 1)) }
        for (from, queue) in machine.inbox.enumerated() where !queue.isEmpty { steps.append((index, 2 + from)) }
      }
      guard !steps.isEmpty else { return }
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let (index, step) = steps[Int((random >> 33) % UInt64(steps.count))]
      if skewed && random & 1 == 0 { now += 1 }
      run(step, on: index)
    }
  }

  private mutating func run(_ step: Int, on index: Int) {
    let time = self.time(of: index)
    var outbox = MeshOutbox()
    switch step {
    case 0:
      let change = machines[index].requests.removeFirst()
      let stamp = DNDStamp(at: change.at, host: change.from, remote: true)
      if let last = machines[index].stamp, !(last < stamp) { return }  // OK older
      machines[index].on = change.on
      machines[index].until = change.ms.map { time.wallMs + Int64($0) } ?? 0
      machines[index].stamp = stamp
      machines[index].reports.append(machines[index].report(now: time.wallMs))
    case 1:
      let report = machines[index].reports.removeFirst()
      machines[index].dnd.reported(report, links: links(), at: time, into: &outbox)
    default:
      let state = machines[index].inbox[step - 2].removeFirst()
      machines[index].dnd.stateHeard(state.payload, links: links(), at: time, into: &outbox)
    }
    take(outbox.takeActions(), from: index)
  }

  private mutating func take(_ actions: [MeshAction], from index: Int) {
    for action in actions {
      switch action {
      case .publish(let message):
        #expect(message.topic == "p/host/\(machines[index].host)/dnd" && message.retain)
        publications[index].append(String(decoding: message.payload, as: UTF8.self))
        guard let state = try? DNDState(payload: message.payload) else {
          Issue.record("unreadable state \(publications[index].last!)")
          continue
        }
        for receiver in machines.indices { machines[receiver].inbox[index].append(state) }
      case .request(let request):
        guard case .remoteDND(let change) = request.request else {
          Issue.record("unexpected request \(request.request)")
          continue
        }
        machines[index].requests.append(change)
      default:
        Issue.record("unexpected action \(action)")
      }
    }
  }

  /// Time passes: each daemon ends a timed do-not-disturb that is due, and reports it.
  mutating func advance(ms: Int64) {
    now += ms
    for index in machines.indices where machines[index].on && machines[index].until > 0 {
      if machines[index].until <= time(of: index).wallMs {
        (machines[index].on, machines[index].until) = (false, 0)
        machines[index].reports.append(machines[index].report(now: time(of: index).wallMs))
      }
    }
    settle()
  }

  /// Every daemon is on the greatest change, with the same state, and every machine's retained
  /// state says it, with the same `until`. A daemon's own end of a timed one is the time left
  /// when it took the change, from when it took it: within the steps between its bridge
  /// hearing the change and the daemon taking it (a millisecond a step here, far less on a
  /// machine).
  func check(_ what: String) {
    let first = machines[0]
    for machine in machines {
      let stamp = machine.stamp ?? DNDStamp(at: UInt64(DNDState.neverChanged), host: machine.host)
      let seen = "\(machine.host) is on \(stamp.at)/\(stamp.host), on=\(machine.on) until=\(machine.until)"
      let wanted = "\(greatest.at)/\(greatest.host), \(first.host) on=\(first.on) until=\(first.until)"
      #expect(
        stamp.at == greatest.at && stamp.host == greatest.host && machine.on == first.on
          && abs(machine.until - first.until) <= 64 && (machine.until == 0) == (first.until == 0),
        "\(what): \(seen); the greatest is \(wanted)")
    }
    let retained = publications.map { $0.last }
    #expect(Set(retained).count == 1, "\(what): the retained states differ: \(retained)")
    guard let state = retained[0].flatMap({ try? DNDState(payload: Array($0.utf8)) }) else {
      Issue.record("\(what): nothing retained")
      return
    }
    #expect(state.stamp == DNDStamp(at: greatest.at, host: greatest.host), "\(what): \(state)")
    #expect(state.on == first.on && abs(state.until - first.until) <= 64, "\(what): \(state)")
  }
}
