import Foundation
import TestSupport
import Testing

/// The broker's files users copy (contrib/mosquitto/) are the ones the tests' brokers run
/// (`Broker`), and the documentation quotes them as they are: docs/MQTT.md shows each, the ACL as
/// its `sed` line makes it for `badged/ana`, and the README gives that line.
@Suite struct BrokerRecipeTests {
  static func read(_ path: String) throws -> String {
    try String(contentsOfFile: Repository.path(path), encoding: .utf8)
  }

  @Test func theDocumentationQuotesTheShippedBrokerFiles() throws {
    let acl = try Self.read("contrib/mosquitto/acl")
    let conf = try Self.read("contrib/mosquitto/badged.conf")
    // The prefix is the template's one variable.
    let variables = Set(
      acl.split(separator: "@", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(
        \.element))
    #expect(variables == ["PREFIX"])
    #expect(acl.contains("\npattern readwrite @PREFIX@/host/%u/#\n"))
    let sed = #"sed 's/@PREFIX@/badged\/ana/' contrib/mosquitto/acl"#
    let mqtt = try Self.read("docs/MQTT.md")
    #expect(mqtt.contains("```\n" + acl.replacingOccurrences(of: "@PREFIX@", with: "badged/ana") + "```\n"))
    #expect(mqtt.contains("```\n" + conf + "```\n"))
    #expect(mqtt.contains(sed + " | sudo tee /etc/mosquitto/acl"))
    #expect(mqtt.contains("sudo cp contrib/mosquitto/badged.conf /etc/mosquitto/conf.d/"))
    #expect(try Self.read("README.md").contains(sed + " | sudo tee /etc/mosquitto/acl"))
  }
}
