import Glibc

/// A mirror catching up with its owner: a watcher of the mirror's daemon (`--socket`) holds
/// every channel of the run (`bench`, or `bench0` … with `--channels N`), the owner's counts are
/// read (`--owner-socket`), then the heal command after `--` runs (`kill -CONT <bridge>`), and
/// the time is from its start until the watcher has seen every channel at the owner's count.
/// The mirror's counts are then read back with GET and must be exactly the owner's.
struct ConvergeRun {
  let options: Options
  let wire: Wire

  func run() {
    let deadline = Deadline(seconds: options.timeoutSeconds)
    let names = (0..<options.channels).map { Wire.channelName($0, of: options.channels) }
    let fd = connectUnix(options.socket, nonBlocking: false)
    defer { close(fd) }
    let pattern = options.channels == 1 ? Wire.fanOutChannel : Wire.fanOutChannel + "*"
    if !sendAll(fd, wire.subscribe(pattern)) { fail("converge: WATCH failed") }
    let lines = TimedLineReader(fd: fd)
    var shown: [String: Int] = [:]
    while true {
      guard let line = lines.next(timeoutMs: 1000) else {
        deadline.check("no end to the WATCH snapshot")
        continue
      }
      if line.hasPrefix("OK") { break }
      if line.hasPrefix("ERR") { fail("converge: \(line)") }
      if let (name, count) = ConvergeRun.count(line) { shown[name] = count }
    }
    let owner = CountCheck(socket: options.ownerSocket!, wire: wire).counts(names)
    let target = Dictionary(uniqueKeysWithValues: zip(names, owner))
    var behind = Set(names.filter { shown[$0] != target[$0] })
    let before = behind.count
    let started = monotonicNanos()
    if !options.command.isEmpty {
      let status = Spawned(options.command).wait()
      if status != 0 { fail("the heal command \(options.command.joined(separator: " ")) exited with \(status)") }
    }
    while !behind.isEmpty {
      guard let line = lines.next(timeoutMs: 1000) else {
        deadline.check("\(behind.count) of \(names.count) channels not yet at the owner's count")
        continue
      }
      guard let (name, count) = ConvergeRun.count(line), let wanted = target[name] else { continue }
      if count == wanted { behind.remove(name) } else { behind.insert(name) }
    }
    let elapsed = monotonicNanos() - started
    let mirror = CountCheck(socket: options.socket, wire: wire).counts(names)
    if mirror != owner {
      let wrong = names.indices.filter { mirror[$0] != owner[$0] }
      fail(
        "count mismatch after converging: \(wrong.count) channels differ, first \(names[wrong[0]]): "
          + "\(mirror[wrong[0]]) here, \(owner[wrong[0]]) on the owner")
    }
    emit(
      "{\"mode\":\"converge\",\"channels\":\(names.count),\"behind_at_start\":\(before),"
        + "\"owner_total\":\(owner.reduce(0, +)),\"seconds\":\(seconds(elapsed)),\"verified\":true}")
  }

  /// The channel and count of a `STATE` or `EVENT` line of a channel.
  static func count(_ line: String) -> (String, Int)? {
    let words = line.split(separator: " ", maxSplits: 3)
    guard words.count >= 3, words[0] == "STATE" || words[0] == "EVENT", words[2].hasPrefix("count=") else { return nil }
    guard let count = Int(words[2].dropFirst(6)) else { return nil }
    return (String(words[1]), count)
  }
}
