import BadgeConfig
import BadgeCore
import Testing

/// The hooks' keys in `badged.conf`: `[daemon]`'s and the sections', layered per channel.
@Suite struct HookConfigTests {
  @Test func configHooksLayerDaemonGlobsAndExactSections() throws {
    let config = try DaemonConfig.parse(
      [
        ConfigEntry(section: "daemon", key: "on_increase", value: "paplay bell.oga", line: 2),
        ConfigEntry(section: "daemon", key: "on_zero", value: "notify-send done", line: 3),
        ConfigEntry(section: "channel app:*", key: "on_increase", value: "app-sound", line: 5),
        ConfigEntry(section: "channel app:quiet", key: "on_increase", value: "", line: 7),
        ConfigEntry(section: "daemon", key: "hook_interval_ms", value: "250", line: 8),
        ConfigEntry(section: "daemon", key: "hook_timeout_ms", value: "2000", line: 9),
        ConfigEntry(section: "daemon", key: "hooks_when_muted", value: "yes", line: 10),
        ConfigEntry(section: "daemon", key: "dnd_badges", value: "dim", line: 11),
        ConfigEntry(section: "daemon", key: "hooks_max_running", value: "1024", line: 12),
      ], file: "badged.conf")
    #expect(config.hooks(for: name("mail")).command(for: .increase)?.words == ["paplay", "bell.oga"])
    #expect(config.hooks(for: name("app:x")).command(for: .increase)?.words == ["app-sound"])
    #expect(config.hooks(for: name("app:x")).command(for: .zero)?.words == ["notify-send", "done"])
    #expect(config.hooks(for: name("app:quiet")).command(for: .increase) == nil, "an empty line turns it off")
    #expect(config.hooks(for: name("mail")).command(for: .pulseEnd) == nil)
    #expect(config.hookIntervalMs == 250 && config.hookTimeoutMs == 2000 && config.hooksWhenMuted)
    #expect(config.hooksMaxRunning == 1024 && DaemonConfig().hooksMaxRunning == 8)
    #expect(config.dndBadges == .dim)
    #expect(DaemonConfig().hookIntervalMs == 1000 && DaemonConfig().hookTimeoutMs == 10_000)
    #expect(!DaemonConfig().hooksWhenMuted && DaemonConfig().dndBadges == .hide)
  }

  /// Whether any channel can run a hook: an empty command runs nothing.
  @Test func aConfigHasHooksOnlyWhenSomeCommandIsNotEmpty() throws {
    func config(_ entries: [(String, String, String)]) throws -> DaemonConfig {
      try DaemonConfig.parse(
        entries.enumerated().map { ConfigEntry(section: $1.0, key: $1.1, value: $1.2, line: $0 + 1) },
        file: "badged.conf")
    }
    #expect(try config([]).hasHooks == false)
    #expect(try config([("daemon", "on_zero", "")]).hasHooks == false)
    #expect(try config([("channel mail", "max_label", "9")]).hasHooks == false)
    #expect(try config([("daemon", "on_increase", "paplay bell.oga")]).hasHooks)
    #expect(try config([("channel app:*", "on_pulse_end", "app-sound")]).hasHooks)
    #expect(try config([("daemon", "on_increase", ""), ("channel mail", "on_zero", "x")]).hasHooks)
  }
}
