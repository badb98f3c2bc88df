/// A usage error: a message, and the command whose usage to show (`nil` for the tool's).
package struct UsageError: Error, Equatable {
  let message: String
  let command: String?

  package init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }
}

/// "Did you mean …?" hints.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
  static func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, distance(word, $0)) }.min { $0.1 < $1.1 }
    guard let (best, score) = scored else { return nil }
    return score <= max(1, min(2, word.count / 3)) || best.hasPrefix(word) && word.count >= 2 ? best : nil
  }

  /// Damerau–Levenshtein distance (optimal string alignment), so a swapped pair counts as one.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
