import Glibc

/// The floor under a change shared through an MQTT broker: Debian's `mosquitto_pub -l` (one
/// persistent publisher, a message per line of its standard input) and `mosquitto_sub` (a
/// line per message on its standard output) through the same broker, with the QoS (1) and
/// retain flag the bridge publishes states with. One message at a time, timed from writing
/// its line to the publisher to reading it back from the subscriber, the next once it came
/// (and, with `--gap-ms`, a pause has passed): what the fan-out through two bridges is
/// measured against.
struct MQTTFloorRun {
  let options: Options

  func run() {
    let deadline = Deadline(seconds: options.timeoutSeconds)
    let broker = ["-h", options.mqttHost, "-p", String(options.mqttPort), "-t", options.mqttTopic, "-q", "1"]
    let subscriber = Spawned(["mosquitto_sub"] + broker, stdout: true)
    let publisher = Spawned(["mosquitto_pub", "-l", "-r"] + broker, stdin: true)
    defer {
      publisher.stop()
      subscriber.stop()
    }
    let lines = TimedLineReader(fd: subscriber.output!)
    // Subscribed once a probe comes back (a retained one from an earlier run counts too).
    var subscribed = false
    while !subscribed {
      write(publisher, "probe")
      while let line = lines.next(timeoutMs: 100) { if line == "probe" { subscribed = true } }
      if subscriber.exited() || publisher.exited() { fail("mosquitto_sub or mosquitto_pub exited: is the broker up?") }
      deadline.check("mosquitto_sub did not receive a probe")
    }
    var latencies = Latencies()
    let started = monotonicNanos()
    for change in 1...options.changes {
      let text = "m\(change)"
      let sent = monotonicNanos()
      write(publisher, text)
      while lines.next(timeoutMs: 1000) != text {
        deadline.check("message \(change) did not arrive")
      }
      latencies.append(monotonicNanos() - sent)
      if options.gapMs > 0 { usleep(UInt32(options.gapMs * 1000)) }
    }
    emit(
      "{\"mode\":\"mqtt-floor\",\"changes\":\(options.changes),\"gap_ms\":\(options.gapMs),\"qos\":1,"
        + "\"seconds\":\(seconds(monotonicNanos() - started)),\(latencies.json())}")
  }

  private func write(_ publisher: Spawned, _ line: String) {
    let bytes = Array((line + "\n").utf8)
    let n = bytes.withUnsafeBytes { Glibc.write(publisher.input!, $0.baseAddress, $0.count) }
    if n != bytes.count { fail("writing to mosquitto_pub failed: errno \(errno)") }
  }
}

/// Lines from a pipe or a socket, each waited for at most a while.
final class TimedLineReader {
  private let fd: Int32
  private var buffer: [UInt8] = []

  init(fd: Int32) { self.fd = fd }

  /// The next line (without its LF), or nil when none came within `timeoutMs`; the other end
  /// closing ends the run.
  func next(timeoutMs: Int32) -> String? {
    while true {
      if let end = buffer.firstIndex(of: 0x0A) {
        defer { buffer.removeFirst(end + 1) }
        return String(decoding: buffer[..<end], as: UTF8.self)
      }
      var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, timeoutMs) <= 0 { return nil }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { fail("closed while a line was awaited") }
      buffer += chunk[..<n]
    }
  }
}
