import BadgePOSIX
import Glibc

// badged-bench: the one load generator for badged and, for comparison, Redis (its inline
// protocol) over a Unix socket, and a trivial echo server to show its own ceiling. One thread
// (or `--threads`) drives every connection with epoll, so the generator is not what is
// measured. Each run prints one JSON line; a broken run (an error reply, a count that does
// not match what was acknowledged, a timeout) exits 1. See BENCHMARKS.md and bench/run.

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let wire = Wire(kind: options.wire)
// 1,000 watchers need more descriptors than the usual 1,024.
OpenFileLimit.raiseToHard()
signal(SIGPIPE, SIG_IGN)
switch options.mode {
case .throughput: ThroughputRun(options: options, wire: wire).run()
case .fanout: FanOutStage(options: options, wire: wire).measureLatency()
case .fanoutLoad: FanOutStage(options: options, wire: wire).measureBurst()
case .hold: HoldRun(options: options, wire: wire).run()
case .startup: StartupRun(options: options, wire: wire).run()
case .reply: ReplyRun(options: options, wire: wire).run()
case .wait: _ = waitForAnswer(socket: options.socket, wire: wire, deadline: Deadline(seconds: options.timeoutSeconds))
case .echo: EchoServer(options: options, wire: wire).run()
case .mqttFloor: MQTTFloorRun(options: options).run()
case .converge: ConvergeRun(options: options, wire: wire).run()
}
