import BadgeCore
import CInih
import Glibc

/// Reads an INI file with libinih into `ConfigEntry` values; `DaemonConfig.parse` validates them.
public enum IniFile {
  /// The entries of the file at `path`, with their line numbers.
  ///
  /// - Throws: `ConfigError` when the file cannot be opened or a line is not INI
  ///   (`file:line: reason`).
  public static func read(path: String) throws(ConfigError) -> [ConfigEntry] {
    guard let file = fopen(path, "r") else {
      throw ConfigError(file: path, line: 0, reason: "Failed to open: \(Errno.current)")
    }
    defer { fclose(file) }
    let context = Context(file: file)
    let userdata = Unmanaged.passUnretained(context).toOpaque()
    let result = withExtendedLifetime(context) {
      ini_parse_stream(readLine, userdata, handleEntry, userdata)
    }
    if let readError = context.readError {
      throw ConfigError(file: path, line: 0, reason: "Failed to read: \(readError)")
    }
    if let long = context.firstLongLine, result == 0 || long <= result {
      throw ConfigError(file: path, line: long, reason: "Line is too long")
    }
    if result > 0 {
      throw ConfigError(file: path, line: Int(result), reason: "Expected 'key = value', '[daemon]' or '[channel NAME]'")
    } else if result < 0 {
      throw ConfigError(file: path, line: 0, reason: "Failed to read: \(Errno.current)")
    }
    return context.entries
  }

  /// State shared with the C callbacks. inih (as Debian builds it) does not pass line numbers
  /// to the handler, so the reader counts the lines it hands out: the handler runs right after
  /// inih reads the line it reports.
  private final class Context {
    let file: UnsafeMutablePointer<FILE>
    var line = 0
    /// The first line longer than inih's buffer (199 bytes before the LF).
    var firstLongLine: Int?
    /// Why reading stopped early, if it did.
    var readError: Errno?
    var entries: [ConfigEntry] = []
    init(file: UnsafeMutablePointer<FILE>) { self.file = file }
  }

  private static let readLine: ini_reader = { buffer, size, stream in
    let context = Unmanaged<Context>.fromOpaque(stream!).takeUnretainedValue()
    guard let result = fgets(buffer, size, context.file) else {
      // NULL is both the end of the file and a read error; inih takes either as the end.
      if ferror(context.file) != 0 { context.readError = .current }
      return nil
    }
    context.line += 1
    let length = strlen(result)
    if length == Int(size) - 1 && result[length - 1] != 0x0A {
      // fgets stopped at the end of inih's buffer, inside the line. The rest would reach inih
      // as a line of its own (read as an entry if it looks like one, and moving every later
      // line number), so skip it here and remember the line.
      var next = getc(context.file)
      if next != 0x0A && next != EOF {
        context.firstLongLine = context.firstLongLine ?? context.line
        while next != 0x0A && next != EOF { next = getc(context.file) }
      }
    }
    return result
  }

  private static let handleEntry: ini_handler = { userdata, section, name, value in
    let context = Unmanaged<Context>.fromOpaque(userdata!).takeUnretainedValue()
    context.entries.append(
      ConfigEntry(
        section: String(cString: section!), key: String(cString: name!),
        value: value.map { String(cString: $0) } ?? "", line: context.line))
    return 1
  }
}
