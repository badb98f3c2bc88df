import BadgeProtocol
import Testing

/// A frame as the tests compare them, with the line's bytes copied out of the reader.
enum Framed: Equatable, CustomStringConvertible {
  case line([UInt8])
  case tooLong

  static func text(_ text: String) -> Framed { .line(Array(text.utf8)) }

  init(_ frame: LineReader.Frame) {
    switch frame {
    case .line(let bytes): self = .line(Array(bytes))
    case .tooLong: self = .tooLong
    }
  }

  var description: String {
    switch self {
    case .line(let bytes) where bytes.count > 40:
      return "line(\(bytes.count) bytes: \(String(decoding: bytes.prefix(8), as: UTF8.self).debugDescription)…)"
    case .line(let bytes): return "line(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
    case .tooLong: return "tooLong"
    }
  }
}

extension LineReader {
  /// Copies `chunk` in with `read(into:)`, the way the daemon reads a socket: when the free
  /// space is smaller than the chunk, it frames what it has and reads again.
  ///
  /// - Returns: the frames that had to come out to make room.
  @discardableResult
  mutating func receive(_ chunk: ArraySlice<UInt8>) -> [Framed] {
    var rest = chunk
    var frames: [Framed] = []
    while !rest.isEmpty {
      let n = read { space in
        let n = min(space.count, rest.count)
        rest.withUnsafeBytes { space.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        return n
      }
      if n == 0 {
        let drained = drain()
        if drained.isEmpty {
          Issue.record("the reader is full and has no frame to give")
          return frames
        }
        frames += drained
      }
      rest = rest.dropFirst(n)
    }
    return frames
  }

  /// Every frame available now, consumed.
  mutating func drain() -> [Framed] {
    var frames: [Framed] = []
    forEachFrame {
      frames.append(Framed($0))
      return true
    }
    return frames
  }

  /// Feeds `input` in chunks of `chunkSize` bytes, framing after every chunk; each frame comes
  /// with the number of bytes received when it came out.
  mutating func feed(_ input: [UInt8], chunkSize: Int) -> [(frame: Framed, received: Int)] {
    var frames: [(Framed, Int)] = []
    var start = 0
    while start < input.count {
      let end = min(start + chunkSize, input.count)
      frames += (receive(input[start..<end]) + drain()).map { ($0, end) }
      start = end
    }
    return frames
  }

  /// The frames of `input` fed in chunks of `chunkSize` bytes to a new reader.
  static func frames(of input: [UInt8], chunkSize: Int, maxLineLength: Int = 4096, capacity: Int = 65536) -> [Framed] {
    var reader = LineReader(maxLineLength: maxLineLength, capacity: capacity)
    return reader.feed(input, chunkSize: chunkSize).map(\.frame)
  }
}

/// One input and the frames it must give however it is split.
struct FramingCase: Sendable, CustomTestStringConvertible {
  let name: String
  let input: [UInt8]
  let frames: [Framed]
  var testDescription: String { name }
}

extension Framed: Sendable {}

/// `count` copies of `byte`.
func bytes(_ byte: Character, _ count: Int) -> [UInt8] {
  [UInt8](repeating: byte.asciiValue!, count: count)
}

/// The bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
