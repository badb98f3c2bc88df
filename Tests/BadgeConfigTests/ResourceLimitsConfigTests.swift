import BadgeConfig
import BadgeCore
import Testing

/// The `[limits]` section: every key, its default, its range and its refusals.
@Suite struct ResourceLimitsConfigTests {
  @Test func theDefaultsAreTheDocumentedOnes() throws {
    let limits = try DaemonConfigTests.parse([]).limits
    #expect(limits == .defaults)
    #expect(limits.maxClients == 1024)
    #expect(limits.maxChannels == 10_000)
    #expect(limits.maxWatchPatterns == 256)
    #expect(limits.maxUnsentBytes == 1_048_576)
    #expect(limits.lineTimeoutMs == 10_000)
    #expect(limits.sendTimeoutMs == 30_000)
  }

  @Test func everyKeySetsItsLimit() throws {
    let limits = try DaemonConfigTests.parse([
      ("limits", "max_clients", "10"), ("limits", "max_channels", "20"),
      ("limits", "max_watch_patterns", "3"), ("limits", "max_unsent_bytes", "65536"),
      ("limits", "line_timeout_ms", "100"), ("limits", "send_timeout_ms", "3600000"),
    ]).limits
    #expect(
      limits
        == ResourceLimits(
          maxClients: 10, maxChannels: 20, maxWatchPatterns: 3, maxUnsentBytes: 65_536,
          lineTimeoutMs: 100, sendTimeoutMs: 3_600_000))
  }

  @Test(arguments: ResourceLimits.Key.allCases)
  func eachKeyTakesItsBoundsAndRefusesPastThem(_ key: ResourceLimits.Key) throws {
    for value in [key.range.lowerBound, key.range.upperBound] {
      #expect(try DaemonConfigTests.parse([("limits", key.rawValue, String(value))]).limits[key] == value)
    }
    for value in [key.range.lowerBound - 1, key.range.upperBound + 1] {
      #expect(
        DaemonConfigTests.failure([("limits", key.rawValue, String(value))])
          == "badged.conf:2: Invalid value '\(value)' for \(key.rawValue): expected a number from "
          + "\(key.range.lowerBound) to \(key.range.upperBound)"
      )
    }
    #expect(
      DaemonConfigTests.failure([("limits", key.rawValue, "many")])
        == "badged.conf:2: Invalid value 'many' for \(key.rawValue): expected a whole number")
  }

  @Test func anUnknownKeyNamesTheKnownOnes() {
    #expect(
      DaemonConfigTests.failure([("limits", "max_cients", "5")])
        == "badged.conf:2: Unknown key 'max_cients' in [limits]; expected one of max_clients, max_channels, "
        + "max_mirrored, max_watch_patterns, max_unsent_bytes, line_timeout_ms, send_timeout_ms"
    )
  }

  @Test func noLimitCanBeSwitchedOff() {
    for key in ResourceLimits.Key.allCases { #expect(!key.range.contains(0), "\(key)") }
  }
}
