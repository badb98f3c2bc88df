/// Sequence sets (`1:3,7`): the server's read into numbers within a bound, the session's written
/// compressed.
public enum ImapSequenceSet {
  /// A set expanding past this many numbers is refused: `1:4294967295` is 22 bytes on the wire
  /// and would be 16 GiB of UIDs.
  public static let maxNumbers = 10_000_000

  /// The numbers of a set in the order written (`3:1` is 1, 2, 3); `*` has no number here.
  public static func numbers(_ text: String, limit: Int = maxNumbers) throws(ImapFailure) -> [UInt32] {
    var numbers: [UInt32] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let ends = part.split(separator: ":", omittingEmptySubsequences: false)
      guard ends.count == 1 || ends.count == 2, let first = number(ends[0]), let last = number(ends[ends.count - 1])
      else { throw .violation("a sequence set \(text.prefix(64))") }
      let low = min(first, last)
      let high = max(first, last)
      guard Int(high - low) < limit - numbers.count else {
        throw .violation("a sequence set of more than \(limit) numbers")
      }
      numbers.append(contentsOf: low...high)
    }
    return numbers
  }

  /// The set of these numbers, ascending, runs as ranges: [7, 1, 2, 3] is `1:3,7`.
  public static func compressed(_ numbers: [UInt32]) -> String {
    let sorted = Set(numbers).sorted()
    var parts: [String] = []
    var index = 0
    while index < sorted.count {
      var end = index
      while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
      parts.append(end == index ? "\(sorted[index])" : "\(sorted[index]):\(sorted[end])")
      index = end + 1
    }
    return parts.joined(separator: ",")
  }

  private static func number(_ text: Substring) -> UInt32? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = UInt32(text), value > 0
    else { return nil }
    return value
  }
}
