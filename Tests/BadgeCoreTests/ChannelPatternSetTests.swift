import BadgeCore
import TestSupport
import Testing

/// Patterns matched together: exact names and prefix patterns looked up, other globs tried.
@Suite struct ChannelPatternSetTests {
  @Test(arguments: [
    ("app:*", "app:"), ("notify:*", "notify:"), ("*", ""), ("a.b-c_d:*", "a.b-c_d:"),
    (String(repeating: "a", count: 63) + "*", String(repeating: "a", count: 63)),
  ])
  func aLiteralAndOneTrailingStarIsAPrefix(_ text: String, _ prefix: String) throws {
    let pattern = try #require(ChannelPattern(text))
    #expect(pattern.prefix?.description == prefix)
    #expect(pattern.prefix?.count == prefix.utf8.count)
  }

  @Test(arguments: ["mail", "*:mail", "a*b", "a?*", "a**", "**", "?*", "*a*", "app:?"])
  func otherShapesAreNoPrefix(_ text: String) throws {
    #expect(try #require(ChannelPattern(text)).prefix == nil)
  }

  @Test func aNamesBeginningEqualsThePrefixOfTheSameBytes() throws {
    let mail = name("app:mail")
    #expect(NamePrefix(mail, length: 4) == ChannelPattern("app:*")?.prefix)
    #expect(NamePrefix(mail, length: 0) == ChannelPattern("*")?.prefix)
    #expect(NamePrefix(mail, length: 3) != ChannelPattern("app:*")?.prefix)
    #expect(NamePrefix(mail, length: 99).description == "app:mail", "at most the name")
  }

  @Test func eachPatternIsKeptOnceInTheOrderGiven() throws {
    var set = ChannelPatternSet()
    for text in ["mail", "app:*", "*:x", "mail", "app:*", "*:x", "chat"] {
      set.insert(try #require(ChannelPattern(text)))
    }
    #expect(set.patterns.map(\.description) == ["mail", "app:*", "*:x", "chat"])
    #expect(set.count == 4)
    var exact: [ChannelName] = []
    set.forEachExactName { exact.append($0) }
    #expect(exact == [name("mail"), name("chat")])
    #expect(set.contains(ChannelPattern("app:*")!))
    #expect(!set.contains(ChannelPattern("app:?")!))
    #expect(set.hasGlobs)
    #expect(!ChannelPatternSet([ChannelPattern("mail")!]).hasGlobs)
  }

  @Test func exactNamesAreApartFromWhatGlobsMatch() throws {
    let set = ChannelPatternSet(["mail", "app:*", "*:inbox"].map { ChannelPattern($0)! })
    #expect(set.namesExactly(name("mail")))
    #expect(!set.globMatches(name("mail")))
    #expect(set.matches(name("mail")))
    #expect(set.globMatches(name("app:x")) && !set.namesExactly(name("app:x")))
    #expect(set.globMatches(name("work:inbox")))
    #expect(!set.matches(name("ap")))
    #expect(!ChannelPatternSet().matches(name("mail")), "an empty set matches nothing")
  }

  /// Random sets of patterns over a small alphabet (so that names and patterns meet often):
  /// the set matches a name exactly when one of its patterns does, tried one by one.
  @Test func theSetMatchesAsItsPatternsDoOneByOne() throws {
    var random = SplitMix(seed: 17)
    let alphabet: [Character] = ["a", "b", ":"]
    func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement(using: &random)! }) }
    func pattern() -> ChannelPattern {
      while true {
        let body = word(Int.random(in: 0...4, using: &random))
        let text: String
        switch Int.random(in: 0..<4, using: &random) {
        case 0: text = "a" + body  // exact
        case 1: text = body + "*"  // prefix
        case 2: text = "*" + body  // another glob
        default: text = body + "?" + word(1)
        }
        if let pattern = ChannelPattern(text) { return pattern }
      }
    }
    for _ in 0..<200 {
      // Sets of a few patterns are scanned, larger ones indexed: both sizes.
      let patterns = (0..<Int.random(in: 1...24, using: &random)).map { _ in pattern() }
      let set = ChannelPatternSet(patterns)
      for _ in 0..<50 {
        let text = "a" + word(Int.random(in: 0...5, using: &random))
        let channel = name(text)
        #expect(set.matches(channel) == patterns.contains { $0.matches(channel) }, "\(patterns) ~ \(text)")
        #expect(
          set.globMatches(channel) == patterns.contains { $0.isGlob && $0.matches(channel) }, "\(patterns) ~ \(text)")
      }
    }
  }
}

extension ChannelPatternSetTests {
  /// Prefixes of up to 15 bytes are kept inline, longer ones apart: either way a name's
  /// beginning of that length is the same key.
  @Test(arguments: [14, 15, 16, 17, 40, 63])
  func prefixesOfEveryLengthAreFoundFromANamesBeginning(_ length: Int) throws {
    let literal = String(repeating: "ab", count: 32).prefix(length)
    let pattern = try #require(ChannelPattern(literal + "*"))
    let long = name(String(literal) + "x")
    #expect(NamePrefix(long, length: length) == pattern.prefix)
    #expect(NamePrefix(long, length: length).hashValue == pattern.prefix?.hashValue)
    #expect(NamePrefix(long, length: length - 1) != pattern.prefix)
    let set = ChannelPatternSet((0..<9).map { ChannelPattern("q\($0)*")! } + [pattern])
    #expect(set.matches(long) && pattern.matches(long))
    #expect(!set.matches(name(String(literal.dropLast()) + "x")))
  }

  @Test func anUnindexedSetMatchesAndGrowsAsAnIndexedOne() throws {
    let patterns = (0..<20).map { ChannelPattern("p\($0)*")! } + [ChannelPattern("mail")!, ChannelPattern("*:x")!]
    let indexed = ChannelPatternSet(patterns)
    var unindexed = ChannelPatternSet(patterns.prefix(5)).unindexed
    #expect(unindexed.count(adding: indexed) == 22)
    var added: [String] = []
    unindexed.formUnion(indexed) { pattern, place in added.append("\(place) \(pattern)") }
    #expect(added.first == "5 p5*" && added.last == "21 *:x")
    #expect(unindexed.patterns == indexed.patterns)
    for text in ["p3x", "p19", "mail", "a:x", "p", "q1"] {
      #expect(unindexed.matches(name(text)) == indexed.matches(name(text)), "\(text)")
    }
    #expect(unindexed.count(adding: indexed) == 22, "nothing new")
  }
}
