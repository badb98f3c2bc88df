import Foundation
import Testing

/// Every `badgectl watch --format` writes what its bar's documented contract accepts
/// (ECOSYSTEM.md, "Status-bar contracts"), checked on the real output of a bounce, a roll, a
/// pulse window and a clear.
@Suite struct WatchFormatTests {
  /// Every format but tmux (whose pacing has a test of its own), as arguments to `watch`.
  static let formats: [String: [String]] = [
    "waybar": [], "i3blocks": [], "json": [], "eww": [], "yambar": [], "plain": [], "term": [],
    "polybar": ["--click", "badgectl clear mail"],
  ]

  /// What a watcher of `mail` wrote in each format while it saw a rise from 0 (with a short
  /// pulse window), a roll, the window's end and a clear. Recorded once, for all formats at
  /// the same time, by the first test that asks.
  static let recorded = Result { () throws -> [String: [String]] in
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 600\n")
    var watchers: [String: WatchProcess] = [:]
    for (format, extra) in formats {
      watchers[format] = try WatchProcess(["mail", "--format", format] + extra, socket: daemon.socket)
    }
    var lines = formats.mapValues { _ in [String]() }
    /// Reads what every watcher wrote for `seconds`, so that no pipe fills up.
    func drain(for seconds: Double) {
      let end = Date().addingTimeInterval(seconds)
      repeat {
        for (format, watch) in watchers { lines[format]! += watch.lines(quiet: 0.01, limit: 0.05) }
      } while Date() < end
    }
    drain(for: 0.5)
    for command in [["set", "mail", "9"], ["incr", "mail", "3"], ["clear", "mail"]] {
      try badgectl(command, socket: daemon.socket)
      drain(for: 1.2)
    }
    return lines
  }

  static func output(_ format: String) throws -> [String] {
    try recorded.get()[format] ?? []
  }

  @Test func waybarWritesOneJSONObjectPerLineWithItsKeys() throws {
    let objects = try WatchFormatTests.output("waybar").map(jsonObject)
    try #require(objects.count > 10)
    for object in objects {
      #expect(object["text"] is String && object["alt"] is String && object["tooltip"] is String)
      #expect(object["class"] is [String] && object["percentage"] is Int)
    }
    let texts = objects.compactMap { $0["text"] as? String }
    #expect(texts.contains { $0.contains("<span size=\"") }, "Pango markup carries the bounce")
    #expect(texts.contains("12") && texts.last == "", "plain at rest, empty (hidden) at 0")
    let classes = objects.compactMap { $0["class"] as? [String] }
    #expect(classes.contains { $0.contains("pulse") } && classes.last == ["zero"])
    #expect(objects.contains { $0["tooltip"] as? String == "mail: 12 unread" })
  }

  @Test func i3blocksWritesJSONWithUrgentAsAStringDuringThePulse() throws {
    let objects = try WatchFormatTests.output("i3blocks").map(jsonObject)
    try #require(objects.count > 5)
    for object in objects {
      let colour = object["color"] as? String ?? ""
      #expect(object["full_text"] is String && colour.count == 7 && colour.hasPrefix("#"))
      #expect(object["urgent"] == nil || object["urgent"] as? String == "true")
    }
    #expect(objects.contains { $0["urgent"] as? String == "true" })
    #expect(
      objects.contains { $0["full_text"] as? String == "12" && $0["urgent"] == nil }, "urgent ends with the window")
  }

  @Test func jsonAndEwwExtendTheFieldsGetPrints() throws {
    for format in ["json", "eww"] {
      let objects = try WatchFormatTests.output(format).map(jsonObject)
      try #require(objects.count > 10)
      for object in objects {
        #expect(object["channel"] as? String == "mail" && object["count"] is Int && object["label"] is String)
        #expect(object["dot"] is Bool && object["pulse"] is Int && object["muted"] is Bool)
        #expect(object["seq"] is Int && object["online"] is Bool && object["pulsing"] is Bool)
        #expect(object["scale"] is Double && object["opacity"] is Double && object["text"] is String)
      }
      #expect(objects.contains { ($0["scale"] as? Double ?? 1) > 1.2 }, "the animated values move")
      #expect(objects.contains { ($0["pulse"] as? Int ?? 0) > 0 && $0["pulsing"] as? Bool == true })
    }
  }

  @Test func jsonAtRestHasExactlyGetsValues() throws {
    let daemon = try DaemonProcess(config: "[channel mail]\npulse_ms = 0\n")
    try badgectl(["set", "mail", "120"], socket: daemon.socket)
    let get = try jsonObject(badgectl(["get", "mail", "--format", "json"], socket: daemon.socket).stdout)
    let watched = try jsonObject(WatchProcess(["mail", "--format", "json"], socket: daemon.socket).readLine())
    #expect(get.count == 12)
    for (key, value) in get {
      #expect("\(value)" == "\(watched[key] ?? "missing")", "\(key)")
    }
  }

  @Test func yambarSetsEndWithAnEmptyLine() throws {
    let lines = try WatchFormatTests.output("yambar")
    try #require(lines.count > 20)
    #expect(lines.last == "", "the last set is ended")
    let sets = lines.split(separator: "", omittingEmptySubsequences: false).dropLast()
    #expect(sets.count > 3 && sets.allSatisfy { !$0.isEmpty }, "no set is empty, none is ended twice")
    let tag = /^[a-z_]+\|(string|int|bool|float)\|.*$/
    for set in sets {
      #expect(set.allSatisfy { $0.wholeMatch(of: tag) != nil }, "\(set)")
      #expect(set.contains { $0.hasPrefix("count|int|") })
    }
    #expect(sets.contains { $0.contains("count|int|12") && $0.contains("pulse|bool|true") })
  }

  @Test func tmuxWritesAtMostOneLineASecond() throws {
    let daemon = try DaemonProcess()
    let watch = try WatchProcess(["mail", "--format", "tmux"], socket: daemon.socket)
    var lines = [(Date(), try watch.readLine())]
    let started = Date()
    for _ in 0..<5 {
      try badgectl(["incr", "mail"], socket: daemon.socket)
      usleep(100_000)
    }
    let changing = Date().timeIntervalSince(started)
    lines += watch.collect(quiet: 2.5)
    // Five changes: without the limit, six lines. With it, the first line and one line for
    // each one-second slot the changes fall in (at most the seconds they took, rounded up,
    // plus one for the phase); counted, not timed, so a slow machine only widens the
    // allowance, up to five: still one line fewer than without the limit.
    let allowed = Int(changing.rounded(.up)) + 2
    #expect(lines.count >= 2 && lines.count <= min(allowed, 5), "\(changing) s of changes: \(lines.map(\.1))")
    let last = try #require(lines.last?.1)
    #expect(last.hasPrefix("#[fg=#") && last.contains("]5#[default]"), "the last state wins: \(last)")
  }

  @Test func polybarTagsAreBalanced() throws {
    let lines = try WatchFormatTests.output("polybar")
    try #require(lines.count > 10)
    for line in lines {
      #expect(polybarTagsBalance(line), "\(line)")
    }
    #expect(lines.contains { $0.contains("%{+u}") }, "the bounce's peak is underlined")
    #expect(lines.contains("%{A1:badgectl clear mail:}%{F#e53935}12%{F-}%{A}"))
    #expect(lines.last == "", "an empty line hides the module at 0")
  }

  @Test func plainAndPipedTermWriteNoEscapes() throws {
    for format in ["plain", "term"] {
      let lines = try WatchFormatTests.output(format)
      try #require(lines.count >= 3)
      #expect(!lines.joined().contains("\u{1B}") && !lines.joined().contains("\r"), "\(format): \(lines)")
      #expect(lines.contains(format == "term" ? "mail 12" : "12"))
    }
  }

  @Test func badValuesAreUsageErrors() throws {
    let cases: [([String], String)] = [
      (["--fps", "0"], "Invalid value '0' for '--fps <n>'"),
      (["--fps", "fast"], "Invalid value 'fast' for '--fps <n>'"),
      (["--max", "0"], "Invalid value '0' for '--max <n>'"),
      (["--template", "{nope}"], "Unknown placeholder '{nope}'"),
      (["--template", "{label"], "Unclosed '{'"),
      (["--format", "json", "--template", "{label}"], "'--template' applies to --format"),
      (["--format", "waybar", "--big"], "'--big' applies to --format term"),
      (["--format", "plain", "--click", "x"], "'--click' applies to --format polybar"),
      (["--format", "html"], "Invalid value 'html' for '--format <format>'"),
    ]
    for (arguments, message) in cases {
      let result = try badgectl(["watch", "mail"] + arguments, socket: "/nonexistent")
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    let get = try badgectl(["get", "mail", "--format", "waybar"], socket: "/nonexistent")
    #expect(get.status == 64 && get.stderr.contains("expected one of plain, json"))
  }
}

/// Whether every polybar tag that opens a region (`%{F#…}`, `%{+u}`, `%{A1:…:}`) is closed by
/// its own closing tag (`%{F-}`, `%{-u}`, `%{A}`), properly nested.
func polybarTagsBalance(_ line: String) -> Bool {
  var open: [String] = []
  var rest = Substring(line)
  while let start = rest.range(of: "%{") {
    rest = rest[start.upperBound...]
    if rest.hasPrefix("A") && !rest.hasPrefix("A}") {
      // A click area's command ends at an unescaped ":}".
      guard let end = rest.range(of: ":}") else { return false }
      open.append("A")
      rest = rest[end.upperBound...]
      continue
    }
    guard let end = rest.firstIndex(of: "}") else { return false }
    let tag = rest[..<end]
    rest = rest[rest.index(after: end)...]
    switch tag {
    case "F-": guard open.popLast() == "F" else { return false }
    case "-u": guard open.popLast() == "u" else { return false }
    case "A": guard open.popLast() == "A" else { return false }
    case "+u": open.append("u")
    case _ where tag.hasPrefix("F#"): open.append("F")
    default: return false
    }
  }
  return open.isEmpty
}
