import BadgeLog
import Testing

/// One log line per change of a connection's state, not one per attempt.
@Suite struct LinkHealthTests {
  @Test func theSameFailureIsReportedOnce() {
    var health = LinkHealth(peer: "the broker mqtts://b:8883")
    let first = health.failed(.unreachable("Connection refused"))
    #expect(
      first
        == .init(
          level: .warning, text: "Failed to connect to the broker mqtts://b:8883: Connection refused; retrying quietly."
        ))
    for _ in 0..<5 { #expect(health.failed(.unreachable("Connection refused")) == nil) }
    #expect(health.failures == 6)
    #expect(health.lastError == "Connection refused")
    // Another reason is another line.
    let line1 = health.failed(.unreachable("Network is unreachable"))
    #expect(line1?.level == .warning)
    #expect(
      health.connected()
        == .init(level: .notice, text: "Connected to the broker mqtts://b:8883 after 7 failed attempts."))
    let line2 = health.connected()
    #expect(line2 == nil)
    #expect(health.lastError == nil)
  }

  @Test func credentialsAndCertificatesAreErrorsThatSayWhatToCheck() {
    var health = LinkHealth(peer: "the broker mqtts://b:8883")
    #expect(
      health.failed(.credentials("Bad user name or password"))
        == .init(
          level: .error,
          text:
            "Failed to log in to the broker mqtts://b:8883: Bad user name or password; check username and password_file. Retrying quietly."
        ))
    let line3 = health.failed(.credentials("Bad user name or password"))
    #expect(line3 == nil)
    #expect(
      health.failed(.certificate("certificate verify failed"))
        == .init(
          level: .error,
          text:
            "Failed to set up TLS with the broker mqtts://b:8883: certificate verify failed; check ca_file and the broker's certificate. Never falling back to plain MQTT; retrying quietly."
        ))
    #expect(LinkFailure.certificate("x").isConfiguration && !LinkFailure.lost("x").isConfiguration)
  }

  @Test func losingAnEstablishedConnectionIsOneWarning() {
    var health = LinkHealth(peer: "badged at /run/b.sock")
    let line4 = health.connected()
    #expect(line4 == .init(level: .notice, text: "Connected to badged at /run/b.sock."))
    let line5 = health.failed(.lost("keepalive timeout"))
    #expect(
      line5
        == .init(
          level: .warning, text: "Lost the connection to badged at /run/b.sock: keepalive timeout; reconnecting."))
    let line6 = health.failed(.unreachable("No such file or directory"))
    #expect(line6?.text == "Failed to connect to badged at /run/b.sock: No such file or directory; retrying quietly.")
    let line7 = health.failed(.unreachable("No such file or directory"))
    #expect(line7 == nil)
    let line8 = health.failed(.takenOver)
    #expect(line8?.level == .warning)
  }
}
