import CGnuTLS
import CLinux
import Glibc

/// The secrets of badged-web: tokens and one-time codes drawn from the kernel's random bytes
/// (`getrandom`), written in base64url so they go in cookies, headers and URLs unescaped, and
/// their SHA-256 (GnuTLS), which is all the tokens file keeps of them.
public enum WebSecret {
  /// A token's random bytes: 256 bits, 43 characters.
  public static let tokenBytes = 32
  /// A code's random bytes: 128 bits, 22 characters, for one use within 10 minutes.
  public static let codeBytes = 16

  /// A new token.
  public static func newToken() -> String { base64URL(randomBytes(tokenBytes)) }

  /// A new one-time code.
  public static func newCode() -> String { base64URL(randomBytes(codeBytes)) }

  /// `count` bytes from the kernel's random source; it blocks only before the pool is ready
  /// at boot, and a signal's interruption is retried.
  public static func randomBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { raw in getrandom(raw.baseAddress! + filled, count - filled, 0) }
      if n > 0 {
        filled += n
      } else if errno != EINTR {
        fatalError("getrandom failed: errno \(errno)")
      }
    }
    return bytes
  }

  /// SHA-256 of `text`'s UTF-8 bytes, in lowercase hex (64 characters).
  public static func sha256Hex(_ text: String) -> String { hex(sha256(Array(text.utf8))) }

  /// SHA-256 of `bytes` (GnuTLS).
  public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    let result = bytes.withUnsafeBytes { input in
      digest.withUnsafeMutableBytes { output in
        gnutls_hash_fast(GNUTLS_DIG_SHA256, input.baseAddress, input.count, output.baseAddress)
      }
    }
    precondition(result == 0, "GnuTLS computes SHA-256")
    return digest
  }

  /// `bytes` in lowercase hex.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `bytes` in base64url (RFC 4648 §5), without padding.
  public static func base64URL(_ bytes: [UInt8]) -> String {
    base64(bytes, alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8))
  }

  /// `bytes` in base64 (RFC 4648 §4), padded: a Content-Security-Policy hash's form.
  public static func base64(_ bytes: [UInt8]) -> String {
    var text = base64(bytes, alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8))
    while text.utf8.count % 4 != 0 { text += "=" }
    return text
  }

  private static func base64(_ bytes: [UInt8], alphabet: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var value = UInt32(0)
      for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
      for position in 0...chunk.count { out.append(alphabet[Int((value >> (18 - 6 * position)) & 0x3F)]) }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `text` could be a token or a code: base64url characters only, at most 64.
  public static func isWellFormed(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= 64
      && text.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
          || byte == 0x2D || byte == 0x5F
      }
  }
}
