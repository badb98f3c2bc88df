import BadgeCore
import BadgeHooks
import Testing

/// A hook's output cut into lines for the log: the first lines, each cut, priorities from
/// `<N>`, the rest counted; lines split across reads in any place.
@Suite struct HookOutputLinesTests {
  /// What the log gets from `output` fed in pieces of `chunk` bytes, and the count dropped.
  static func logged(_ output: String, chunk: Int = 1 << 16) -> (lines: [String], dropped: Int) {
    var lines = HookOutputLines()
    var result: [String] = []
    let bytes = Array(output.utf8)
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + chunk)
      bytes[start..<end].withUnsafeBytes { lines.feed($0) { result.append("\($0.name) \($1)") } }
      start = end
    }
    lines.finish { result.append("\($0.name) \($1)") }
    return (result, lines.dropped)
  }

  @Test(arguments: [1, 2, 3, 7, 64, 1 << 16])
  func linesArriveWholeWhereverTheReadsCutThem(_ chunk: Int) {
    let output = "first\n<3>an error\n\nlast without a line feed"
    #expect(
      Self.logged(output, chunk: chunk) == (
        ["info first", "err an error", "info ", "info last without a line feed"], 0
      ))
  }

  @Test func onlyAPriorityPrefixFromZeroToSevenCounts() {
    #expect(
      Self.logged("<7>d\n<8>x\n<a>y\n<5\n<0>\n").lines == ["debug d", "info <8>x", "info <a>y", "info <5", "emerg "])
  }

  @Test func theFirstLinesAreLoggedAndTheOthersCounted() {
    let output = (1...10_000).map { "line \($0)\n" }.joined()
    let (lines, dropped) = Self.logged(output, chunk: 4096)
    #expect(lines == (1...HookOutputLines.maxLines).map { "info line \($0)" })
    #expect(dropped == 10_000 - HookOutputLines.maxLines)
  }

  @Test func aLongLineIsCutAndItsEndDropped() {
    let long = String(repeating: "y", count: 5000)
    let (lines, dropped) = Self.logged("\(long)\nnext\n", chunk: 1000)
    #expect(lines == ["info " + String(repeating: "y", count: HookOutputLines.maxLineBytes) + "…", "info next"])
    #expect(dropped == 0)
  }

  @Test func noOutputLogsNothing() {
    #expect(Self.logged("") == ([], 0))
  }
}
