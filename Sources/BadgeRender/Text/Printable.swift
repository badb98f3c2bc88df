/// Text with its control characters removed: a newline would split a line-based protocol and
/// an escape would let a template drive the terminal. Every format's escaping starts here.
enum Printable {
  static func text(_ text: String) -> String {
    var out = ""
    out.unicodeScalars.append(
      contentsOf: text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
    return out
  }
}
