/// The words of a protocol line: the runs of bytes between ASCII spaces, empty ones dropped.
///
/// Found byte by byte rather than by `Character`: splitting a `String` on `" "` breaks every
/// byte of the line into grapheme clusters first, which made reading a state line cost a
/// bridge or a watcher several times what the rest of its handling did. Lines carry no text
/// where the two could differ (labels and names hold no blanks).
public func protocolWords(_ text: Substring) -> [Substring] {
  text.utf8.split(separator: UInt8(ascii: " ")).map { Substring($0) }
}
