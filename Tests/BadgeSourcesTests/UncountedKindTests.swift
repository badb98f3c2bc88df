import BadgeSources
import Testing

/// A kind the core does not count yet holds no channel.
@Suite struct UncountedKindTests {
  @Test func aNotmuchSourceClaimsNothing() throws {
    let harness = try SourcesHarness("[source.lists]\nkind = notmuch\n")
    #expect(harness.start().isEmpty)
    #expect(harness.connect() == [.request(.attach)])
  }
}
