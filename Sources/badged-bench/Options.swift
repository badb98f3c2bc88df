import Glibc

/// What one run of badged-bench does, read from its command line. Every flag takes a value
/// except `--serve-echo` and `--no-verify`; whatever follows `--` is the server command of the
/// `startup` mode, or the heal command of `converge`.
struct Options {
  /// The scenarios: INCR throughput, fan-out latency, fan-out under a burst, idle watchers held
  /// for a memory reading, start-up to the first answer, one large reply beside PINGs; `wait`
  /// (until a server answers PING, for scripts) and the echo server (the generator's ceiling).
  /// For channels shared through an MQTT broker: the floor of a publish to a subscriber
  /// (`mqtt-floor`) and a mirror catching up with its owner (`converge`).
  enum Mode: String {
    case throughput, fanout
    case fanoutLoad = "fanout-load"
    case hold, startup, reply, wait, echo
    case mqttFloor = "mqtt-floor"
    case converge
  }

  var mode = Mode.throughput
  var socket = ""
  var wire = Wire.Kind.badged
  var clients = 1
  var requests = 100_000
  var pipeline = 1
  var channels = 1
  var publish = false
  /// `--command incr-id`: every INCR carries an id of its own (`id=b<pid>-<client>:<n>`), the
  /// cost of a request that may be retried.
  var ids = false
  var threads = 1
  var watchers = 1000
  var changes = 500
  var timeoutSeconds = 300.0
  var pingIntervalMs = 10
  var verify = true
  var command: [String] = []
  /// Prefix patterns each held watcher watches instead of the fan-out channel (`w<n>-<i>:*`).
  var patterns = 0
  /// The reply mode's request line, how long its reader reads nothing first, and the server
  /// whose memory is read.
  var request = "STATS year"
  var holdSeconds = 0.0
  var serverPID: Int32?
  /// Where the fan-out's watchers connect when not to `socket` (a mirror of the writer's daemon).
  var watchSocket: String?
  /// The daemon that owns the channels written through `socket` (a mirror): throughput counts
  /// are checked there once applied, and `converge` compares the mirror with it.
  var ownerSocket: String?
  /// A pause between the fan-out's changes (and the MQTT floor's messages), in milliseconds.
  var gapMs = 0
  /// At most this many INCRs a second (throughput), spread evenly; 0: as fast as answered.
  var rate = 0
  /// The broker of `mqtt-floor` (plain MQTT), its topic and QoS.
  var mqttHost = "127.0.0.1"
  var mqttPort = 1883
  var mqttTopic = "bench/floor"

  static let usage = """
    usage: badged-bench --socket PATH [--protocol badged|redis] [--mode MODE] [options]
      --mode throughput   [--clients N] [--requests N] [--pipeline N] [--channels N] [--threads N]
                          [--command incr|incr-id|publish] [--no-verify] [--rate N] [--owner-socket PATH]
      --mode fanout       [--watchers N] [--changes N] [--watch-socket PATH] [--gap-ms N]
      --mode fanout-load  [--watchers N] [--requests N] [--pipeline N] [--ping-interval-ms N]
      --mode hold         [--watchers N] [--patterns N]
      --mode reply        [--request LINE] [--hold-seconds S] [--server-pid PID] [--ping-interval-ms N]
      --mode startup      -- SERVER-COMMAND [ARG...]
      --mode wait         (until the server answers PING)
      --mode mqtt-floor   --mqtt-port N [--mqtt-host H] [--mqtt-topic T] [--changes N] [--gap-ms N]
      --mode converge     --owner-socket PATH [--channels N] [-- HEAL-COMMAND [ARG...]]
      --serve-echo        (the same as --mode echo)
      --timeout SECONDS   (every mode but echo and hold; default 300)
    """

  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var args = arguments[...]
    while let flag = args.popFirst() {
      switch flag {
      case "--":
        options.command = Array(args)
        args = []
        continue
      case "--serve-echo":
        options.mode = .echo
        continue
      case "--no-verify":
        options.verify = false
        continue
      default: break
      }
      guard let value = args.popFirst() else { usageError("missing value for \(flag)") }
      switch flag {
      case "--mode": options.mode = valid(Mode(rawValue: value), "unknown mode \(value)")
      case "--socket": options.socket = value
      case "--protocol": options.wire = valid(Wire.Kind(rawValue: value), "unknown protocol \(value)")
      case "--clients": options.clients = positive(flag, value)
      case "--requests": options.requests = positive(flag, value)
      case "--pipeline": options.pipeline = positive(flag, value)
      case "--channels": options.channels = positive(flag, value)
      case "--threads": options.threads = positive(flag, value)
      case "--watchers":
        options.watchers = valid(Int(value).flatMap { $0 >= 0 ? $0 : nil }, "bad number for \(flag): \(value)")
      case "--changes": options.changes = positive(flag, value)
      case "--timeout":
        options.timeoutSeconds = valid(Double(value).flatMap { $0 > 0 ? $0 : nil }, "bad number for \(flag): \(value)")
      case "--ping-interval-ms": options.pingIntervalMs = positive(flag, value)
      case "--patterns": options.patterns = positive(flag, value)
      case "--request": options.request = value
      case "--hold-seconds":
        options.holdSeconds = valid(Double(value).flatMap { $0 >= 0 ? $0 : nil }, "bad number for \(flag): \(value)")
      case "--server-pid": options.serverPID = Int32(positive(flag, value))
      case "--watch-socket": options.watchSocket = value
      case "--owner-socket": options.ownerSocket = value
      case "--gap-ms":
        options.gapMs = valid(Int(value).flatMap { $0 >= 0 ? $0 : nil }, "bad number for \(flag): \(value)")
      case "--rate": options.rate = positive(flag, value)
      case "--mqtt-host": options.mqttHost = value
      case "--mqtt-port": options.mqttPort = positive(flag, value)
      case "--mqtt-topic": options.mqttTopic = value
      case "--command":
        guard ["incr", "incr-id", "publish"].contains(value) else { usageError("unknown command \(value)") }
        options.publish = value == "publish"
        options.ids = value == "incr-id"
      default: usageError("unknown option \(flag)")
      }
    }
    if options.socket.isEmpty && options.mode != .mqttFloor { usageError("--socket is required") }
    if options.mode == .startup && options.command.isEmpty { usageError("startup needs a server command after --") }
    if options.mode != .startup && options.mode != .converge && !options.command.isEmpty {
      usageError("a command after -- is only for --mode startup and converge")
    }
    if options.mode == .converge && options.ownerSocket == nil { usageError("converge needs --owner-socket") }
    if (options.ownerSocket != nil || options.watchSocket != nil) && options.wire != .badged {
      usageError("--owner-socket and --watch-socket are badged's (mirrored channels)")
    }
    if options.publish && options.wire != .redis { usageError("--command publish is Redis's") }
    if options.ids && options.wire != .badged { usageError("--command incr-id is badged's") }
    if options.threads > options.clients { usageError("--threads cannot exceed --clients") }
    if options.patterns > 0 && options.wire != .badged { usageError("--patterns is badged's (WATCH)") }
    return options
  }

  private static func valid<T>(_ value: T?, _ message: String) -> T {
    guard let value else { usageError(message) }
    return value
  }

  private static func positive(_ flag: String, _ value: String) -> Int {
    guard let number = Int(value), number > 0 else { usageError("bad number for \(flag): \(value)") }
    return number
  }
}

/// Writes one line to standard output at once (no buffer to flush before a reading is taken).
func emit(_ line: String) {
  var bytes = Array((line + "\n").utf8)
  var sent = 0
  while sent < bytes.count {
    let n = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + sent, $0.count - sent) }
    if n <= 0 { break }
    sent += n
  }
}

/// A bad command line: the usage on standard error, exit status 2.
func usageError(_ message: String) -> Never {
  writeError("badged-bench: \(message)\n\(Options.usage)")
  exit(2)
}

/// The server the start-up mode spawned, while it runs: a failed run kills it, so nothing
/// outlives the generator.
nonisolated(unsafe) var serverToKillOnFailure: pid_t = 0

/// A run that broke (a count mismatch, an error reply, a closed connection, a timeout): exit 1.
func fail(_ message: String) -> Never {
  writeError("badged-bench: \(message)")
  if serverToKillOnFailure > 0 { kill(serverToKillOnFailure, SIGKILL) }
  exit(1)
}

func writeError(_ message: String) {
  let bytes = Array((message + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
