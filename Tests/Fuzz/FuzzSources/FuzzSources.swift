import BadgeConfig
import BadgeCore
import BadgeSources
import BadgeSystem
import FuzzSupport

/// libFuzzer target: bytes as badged-sources reads them. An even first byte makes the rest a
/// config file, read as the program reads it (libinih, then `SourcesConfig.parse`); an odd one
/// makes it a file name found in a Maildir folder, a folder's name and a command's output.
///
/// Checked beyond "never crashes": a refusal names a line of the file; an accepted config
/// gives each fixed channel one source and reloads onto itself keeping every source, and an imap
/// source sends a password in the clear only to a loopback host; a name's
/// unique part begins it and survives marking read, which gives a name read in `cur/` and is
/// done once; a folder's channel is a name its template makes; a quote of output is one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSources(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let rest = Array(bytes.dropFirst())
  if bytes[0] % 2 == 0 {
    checkConfig(rest)
  } else {
    checkName(rest)
  }
  return 0
}

private func checkConfig(_ text: [UInt8]) {
  let path = FuzzFiles.folder + "/badged.conf"
  text.withUnsafeBufferPointer { FuzzFiles.write(path, $0) }
  do throws(ConfigError) {
    let config = try SourcesConfig.parse(IniFile.read(path: path), file: path)
    let channels = config.sources.flatMap(\.fixedChannels)
    precondition(Set(channels).count == channels.count, "a channel with two sources: \(channels)")
    precondition(config.sources.count <= SourcesConfig.maxSources, "\(config.sources.count) sources")
    for case .imap(let imap) in config.sources.map(\.settings) {
      let loopback = imap.host == "localhost" || imap.host == "::1" || imap.host.hasPrefix("127.")
      precondition(imap.security != .plaintext || loopback, "plaintext to \(imap.host)")
      precondition(ImapSettings.maxConnectionsRange.contains(imap.maxConnections) && (1...65_535).contains(imap.port))
    }
    let plan = ReloadPlan(old: config, new: config)
    precondition(plan.kept == config.sources.map(\.name) && plan.released.isEmpty, "a reload onto itself: \(plan)")
  } catch {
    let lines = text.count { $0 == 0x0A } + 1
    precondition(error.line >= 0 && error.line <= lines, "error names line \(error.line) of \(lines): \(error)")
  }
}

private func checkName(_ bytes: [UInt8]) {
  if let name = MaildirName(bytes) {
    precondition(bytes.starts(with: name.unique), "the unique part does not begin the name")
    for place in MaildirPlace.allCases {
      guard let read = name.markedRead(from: place) else {
        precondition(place == .cur && !name.isUnread(in: .cur), "nothing to mark read in an unread name")
        continue
      }
      precondition(read.unique == name.unique, "marking read changed the identity")
      precondition(!read.isUnread(in: .cur), "marked read, still unread")
      precondition(read.markedRead(from: .cur) == nil, "marked read twice")
    }
  }
  if !bytes.isEmpty {
    let template = try! ChannelTemplate("mail:{folder}")
    let channel = template.channel(forFolder: bytes)
    precondition(template.couldMake(channel), "\(template) does not make \(channel)")
  }
  let quote = CountLine.quote(bytes)
  precondition(!quote.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "a quote with control bytes")
  _ = CountLine.count(ofRun: bytes)
  var lines = FollowLines()
  _ = lines.feed(bytes)
  if ByteGlob(String(decoding: bytes, as: UTF8.self)).isLiteral, String(validating: bytes, as: UTF8.self) != nil {
    precondition(ByteGlob(String(decoding: bytes, as: UTF8.self)).matches(bytes), "a literal glob misses itself")
  }
}
