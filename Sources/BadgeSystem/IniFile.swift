import BadgeConfig
import BadgeCore
import CInih
import Glibc

/// Reads an INI file with libinih into `ConfigEntry` values; `DaemonConfig.parse` validates them.
public enum IniFile {
  /// The entries of a program's config file: none when the file is the default one
  /// (`mustExist` false) and does not exist, so a program runs on its defaults without one; a
  /// file named on the command line must exist.
  public static func read(path: String, mustExist: Bool) throws(ConfigError) -> [ConfigEntry] {
    if !mustExist && !FileSystem.exists(path) { return [] }
    return try read(path: path)
  }

  /// The entries of the file at `path`, with their line numbers.
  ///
  /// - Throws: `ConfigError` when the file cannot be opened or a line is not INI
  ///   (`file:line: reason`).
  public static func read(path: String) throws(ConfigError) -> [ConfigEntry] {
    let file = try open(path)
    defer { fclose(file) }
    let context = Context(file: file)
    let userdata = Unmanaged.passUnretained(context).toOpaque()
    let result = withExtendedLifetime(context) {
      ini_parse_stream(readLine, userdata, handleEntry, userdata)
    }
    if let readError = context.readError {
      throw ConfigError(file: path, line: 0, reason: "Failed to read: \(readError)")
    }
    if let nul = context.firstNULLine, result == 0 || nul <= result {
      throw ConfigError(file: path, line: nul, reason: "Line holds a NUL byte")
    }
    if let long = context.firstLongLine, result == 0 || long <= result {
      throw ConfigError(file: path, line: long, reason: "Line is longer than \(maxLineLength) bytes, comments included")
    }
    if result > 0 {
      throw ConfigError(file: path, line: Int(result), reason: "Expected 'key = value', '[daemon]' or '[channel NAME]'")
    } else if result < 0 {
      throw ConfigError(file: path, line: 0, reason: "Failed to read: \(Errno.current)")
    }
    return context.entries
  }

  /// The longest line inih (as Debian builds it, with a 200-byte buffer) reads, not counting
  /// its LF; badged.conf(5) states it.
  public static let maxLineLength = 199

  /// Opens the file without blocking (a FIFO named by mistake would block until a writer
  /// comes, and a reload would block the daemon's loop with it) and refuses anything that is
  /// not a regular file.
  private static func open(_ path: String) throws(ConfigError) -> UnsafeMutablePointer<FILE> {
    let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw ConfigError(file: path, line: 0, reason: "Failed to open: \(Errno.current)") }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let error = Errno.current
      Glibc.close(fd)
      throw ConfigError(file: path, line: 0, reason: "Failed to open: \(error)")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      Glibc.close(fd)
      throw ConfigError(file: path, line: 0, reason: "Not a regular file")
    }
    guard let file = fdopen(fd, "r") else {
      let error = Errno.current
      Glibc.close(fd)
      throw ConfigError(file: path, line: 0, reason: "Failed to open: \(error)")
    }
    return file
  }

  /// State shared with the C callbacks. inih (as Debian builds it) does not pass line numbers
  /// to the handler, so the reader counts the lines it hands out: the handler runs right after
  /// inih reads the line it reports.
  private final class Context {
    let file: UnsafeMutablePointer<FILE>
    var line = 0
    /// The first line longer than inih's buffer (199 bytes before the LF).
    var firstLongLine: Int?
    /// The first line with a NUL byte, which C strings would cut short.
    var firstNULLine: Int?
    /// Why reading stopped early, if it did.
    var readError: Errno?
    var entries: [ConfigEntry] = []
    init(file: UnsafeMutablePointer<FILE>) { self.file = file }
  }

  /// Hands inih one line at a time, as `fgets` would, but byte by byte so that it sees the
  /// bytes C strings hide: a NUL inside the line, and the end of inih's buffer inside a line.
  private static let readLine: ini_reader = { buffer, size, stream in
    let context = Unmanaged<Context>.fromOpaque(stream!).takeUnretainedValue()
    guard let buffer, size > 1 else { return nil }
    var length = 0
    var byte = getc(context.file)
    if byte == EOF {
      // The end of the file and a read error look alike here; inih takes either as the end.
      if ferror(context.file) != 0 { context.readError = .current }
      return nil
    }
    context.line += 1
    while byte != EOF {
      if byte == 0 { context.firstNULLine = context.firstNULLine ?? context.line }
      if length == Int(size) - 1 {
        // The line does not fit inih's buffer. The rest would reach inih as a line of its own
        // (read as an entry if it looks like one, and moving every later line number), so skip
        // it here and remember the line.
        if byte != 0x0A { context.firstLongLine = context.firstLongLine ?? context.line }
        while byte != 0x0A && byte != EOF { byte = getc(context.file) }
        break
      }
      buffer[length] = CChar(truncatingIfNeeded: byte)
      length += 1
      if byte == 0x0A { break }
      byte = getc(context.file)
    }
    if ferror(context.file) != 0 { context.readError = .current }
    buffer[length] = 0
    return buffer
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
