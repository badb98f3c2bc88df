import BadgeCore
import Testing

@Suite struct ChannelPatternTests {
  @Test func anExactNameMatchesOnlyItself() throws {
    let pattern = try #require(ChannelPattern("mail"))
    #expect(!pattern.isGlob)
    #expect(pattern.exactName == name("mail"))
    #expect(pattern.matches(name("mail")))
    for other in ["Mail", "mail2", "mai", "xmail", "m"] {
      #expect(!pattern.matches(name(other)), "'\(other)'")
    }
  }

  @Test func starMatchesEveryName() throws {
    let star = try #require(ChannelPattern("*"))
    #expect(star.isGlob)
    #expect(star.exactName == nil)
    #expect(star == ChannelPattern.all)
    for text in ["a", "mail", "app:mail.inbox", String(repeating: "z", count: 64)] {
      #expect(star.matches(name(text)))
    }
  }

  /// pattern, name, whether it matches (worked out by hand).
  static let table: [(String, String, Bool)] = [
    ("?", "a", true), ("?", "ab", false), ("??", "ab", true), ("??", "a", false), ("??", "abc", false),
    ("a?c", "abc", true), ("a?c", "ac", false), ("a?c", "abbc", false),
    ("app:*", "app:mail", true), ("app:*", "app:", true), ("app:*", "app", false), ("app:*", "xapp:mail", false),
    ("*:mail", "work:mail", true), ("*:mail", "work:mail2", false), ("*mail", "mail", true), ("mail*", "mail", true),
    ("*.*", "a.b", true), ("*.*", "ab", false), ("a**b", "ab", true), ("a**b", "axxb", true),
    ("a*b*c", "abc", true), ("a*b*c", "aXbYc", true), ("a*b*c", "acb", false), ("a*b*c", "abcbc", true),
    ("a*ab", "aab", true), ("a*ab", "aaab", true), ("a*ab", "abab", true), ("a*ab", "aba", false),
    ("*aab", "aaab", true), ("*aab", "aabaab", true), ("*aab", "aaba", false),
    ("*a*a*a", "aaa", true), ("*a*a*a", "aa", false), ("*a*a*a", "babab", false), ("*a*a*a", "bababa", true),
    ("*ab*ab", "xabyabab", true), ("*ab*ab", "abab", true), ("*ab*ab", "aba", false),
    ("?*?", "a", false), ("?*?", "ab", true), ("*?", "a", true), ("*x", "xxxxxxxy", false), ("*x*y", "axbxcy", true),
    ("a*", String(repeating: "a", count: 64), true), ("*b", String(repeating: "a", count: 64), false),
  ]

  @Test(arguments: table)
  func globsMatchByHand(_ glob: String, _ text: String, _ expected: Bool) throws {
    let pattern = try #require(ChannelPattern(glob))
    #expect(pattern.isGlob)
    #expect(pattern.matches(name(text)) == expected)
  }

  /// A plainly recursive matcher to hold the iterative one against.
  static func reference(_ pattern: Substring, _ text: Substring) -> Bool {
    guard let first = pattern.first else { return text.isEmpty }
    if first == "*" {
      return reference(pattern.dropFirst(), text) || (!text.isEmpty && reference(pattern, text.dropFirst()))
    }
    guard let head = text.first, first == "?" || first == head else { return false }
    return reference(pattern.dropFirst(), text.dropFirst())
  }

  @Test func everySmallGlobAgreesWithARecursiveMatcher() throws {
    // Every pattern of up to 4 symbols over {a, b, *, ?} against every name of up to 5 letters.
    func all(_ alphabet: [Character], upTo length: Int) -> [String] {
      var result = [""]
      var layer = [""]
      for _ in 0..<length {
        layer = layer.flatMap { prefix in alphabet.map { prefix + String($0) } }
        result += layer
      }
      return result
    }
    let names = all(["a", "b"], upTo: 5).filter { !$0.isEmpty }
    for glob in all(["a", "b", "*", "?"], upTo: 4) where glob.contains(where: { $0 == "*" || $0 == "?" }) {
      let pattern = try #require(ChannelPattern(glob))
      for text in names {
        #expect(pattern.matches(name(text)) == Self.reference(glob[...], text[...]), "'\(glob)' ~ '\(text)'")
      }
    }
  }

  @Test(arguments: [
    "", "a b", "a/b", "é", "mail!", "[a]", "a,b", "mail\t", ".mail", "-x", "_x", ":x",
    String(repeating: "a", count: 65), "*" + String(repeating: "a", count: 64),
  ])
  func refusesInvalidPatterns(_ text: String) {
    #expect(ChannelPattern(text) == nil)
    #expect(ChannelPattern(bytes: Array(text.utf8)) == nil)
  }

  @Test(arguments: [".*", "*", "**", "?", "-*", String(repeating: "?", count: 64), "app:*.inbox_?"])
  func acceptsGlobsOfNameBytesAndWildcards(_ text: String) throws {
    let pattern = try #require(ChannelPattern(text))
    #expect(pattern.isGlob)
    #expect(pattern.description == text)
  }

  @Test func lengthLimitCountsWildcards() {
    #expect(ChannelPattern(String(repeating: "a", count: 64)) != nil)
    #expect(ChannelPattern("*" + String(repeating: "a", count: 63)) != nil)
  }

  @Test func patternsAreValuesByText() {
    #expect(ChannelPattern("app:*") == ChannelPattern(bytes: Array("app:*".utf8)))
    #expect(ChannelPattern("app:*") != ChannelPattern("app:?"))
    let set: Set<ChannelPattern> = [ChannelPattern("a*")!, ChannelPattern("a*")!, ChannelPattern("mail")!]
    #expect(set.count == 2)
    #expect(ChannelPattern("mail")?.description == "mail")
  }
}
