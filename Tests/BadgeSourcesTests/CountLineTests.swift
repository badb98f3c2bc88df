import BadgeSources
import Testing

/// `CountLine` and `FollowLines`: what a command prints, read as a count or refused with the
/// exact message a source's state shows.
@Suite struct CountLineTests {
  static func message(_ text: String) -> String? {
    switch CountLine.count(Array(text.utf8)) {
    case .success: return nil
    case .failure(let refusal): return refusal.description
    }
  }

  @Test(arguments: [("0", 0), ("12", 12), (" 7\t", 7), ("42\r", 42), ("007", 7), ("2147483647", 2_147_483_647)])
  func counts(text: String, count: Int) {
    #expect(CountLine.count(Array(text.utf8)) == .success(count))
  }

  @Test(arguments: [
    ("-3", "not a count: '-3'"),
    ("+3", "not a count: '+3'"),
    ("1e9", "not a count: '1e9'"),
    ("2.0", "not a count: '2.0'"),
    ("99999999999", "not a count: '99999999999'"),
    ("2147483648", "not a count: '2147483648'"),
    ("99999999999999999999999", "not a count: '99999999999999999999999'"),
    ("", "not a count: ''"),
    ("3 4", "not a count: '3 4'"),
    ("it's 5", "not a count: 'it\\'s 5'"),
    ("C:\\tmp", "not a count: 'C:\\\\tmp'"),
    ("\u{1B}[31m5", "not a count: '\\x1b[31m5'"),
    ("café", "not a count: 'caf\\xc3\\xa9'"),
  ])
  func refusals(text: String, message: String) {
    #expect(Self.message(text) == message)
  }

  @Test func aLongLineIsQuotedCut() {
    let line = String(repeating: "x", count: 100)
    #expect(Self.message(line) == "not a count: '\(String(repeating: "x", count: 64))…'")
    #expect(Self.message(String(repeating: "y", count: 64)) == "not a count: '\(String(repeating: "y", count: 64))'")
    #expect(CountLine.quote([0xFF, 0x00, 0x0A]) == "\\xff\\x00\\x0a")
  }

  @Test func aRunCountsItsLastLine() {
    #expect(CountLine.count(ofRun: Array("warming up\n3\n\n  \n".utf8)) == .success(3))
    #expect(CountLine.count(ofRun: Array("5".utf8)) == .success(5))
    #expect(CountLine.count(ofRun: Array("5\nfive\n".utf8)) == .failure(.notACount(quoted: "five")))
    #expect(CountLine.count(ofRun: []) == .failure(.noCount))
    #expect(CountLine.count(ofRun: Array(" \n\n".utf8)).mapError(\.description) == .failure(.init("printed no count")))
    let big = [UInt8](repeating: 0x31, count: 4097)
    #expect(
      CountLine.count(ofRun: big).mapError(\.description) == .failure(.init("printed more than 4096 bytes in a run")))
    #expect(CountLine.count(ofRun: Array(repeating: 0x0A, count: 4095) + [0x39]) == .success(9))
  }

  @Test func followedLines() {
    var lines = FollowLines()
    #expect(lines.feed(Array("1".utf8)).isEmpty)
    #expect(lines.feed(Array("2\n\n3\n-3\n".utf8)) == [.success(12), .success(3), .failure(.notACount(quoted: "-3"))])
    #expect(lines.feed(Array("4".utf8)).isEmpty)
    #expect(lines.feed(Array("\n".utf8)) == [.success(4)])
    #expect(!lines.overflowed)
  }

  @Test func aFollowedLineTooLongStopsTheReading() {
    var lines = FollowLines()
    let results = lines.feed(Array(repeating: UInt8(ascii: "7"), count: 257) + Array("\n5\n".utf8))
    #expect(results.map { $0.mapError(\.description) } == [.failure(.init("printed more than 256 bytes in a line"))])
    #expect(lines.overflowed)
    #expect(lines.feed(Array("6\n".utf8)).isEmpty)
    var exact = FollowLines()
    #expect(exact.feed(Array(repeating: UInt8(ascii: "0"), count: 256) + [0x0A]) == [.success(0)])
  }
}

/// A refusal's words, comparable in `Result`.
struct Words: Error, Equatable {
  let text: String
  init(_ text: String) { self.text = text }
}

extension Result where Failure == CountLine.Refusal {
  func mapError(_ words: (CountLine.Refusal) -> String) -> Result<Success, Words> {
    mapError { Words(words($0)) }
  }
}
