import BadgeConfig
import BadgeCore
import BadgeDaemon
import FuzzSupport

/// libFuzzer target: bytes as the config file, read the way the daemon reads it at start and
/// on reload (`Daemon.loadConfig`: inih, then `DaemonConfig.parse`). Every input must give a
/// config or a `file:line: reason` error; a refusal must name a line of the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let path = FuzzFiles.folder + "/badged.conf"
  FuzzFiles.write(path, UnsafeBufferPointer(start: data, count: size))
  do throws(ConfigError) {
    let config = try Daemon.loadConfig(path: path, required: true)
    for section in config.sections {
      if let name = section.pattern.exactName { _ = config.settings(for: name) }
    }
  } catch {
    let lines = UnsafeBufferPointer(start: data, count: size).count { $0 == 0x0A } + 1
    precondition(error.line >= 0 && error.line <= lines, "error names line \(error.line) of \(lines): \(error)")
  }
  return 0
}
