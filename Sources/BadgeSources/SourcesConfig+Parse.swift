import BadgeConfig
import BadgeCore

extension SourcesConfig {
  /// Builds the sources' config from the entries of a config file: the `[source.NAME]`
  /// sections', the others being the daemon's and the bridge's.
  ///
  /// The whole file is checked and its first fault reported, in file order: each section's
  /// faults (`SourceSpec.parse`), the 257th source, then the faults between sources, each
  /// placed at the later of the two lines it concerns and naming the earlier. A section named
  /// twice in the file is one section; a key given twice keeps its later value, as everywhere
  /// in badged.conf.
  ///
  /// - Throws: `ConfigError` (`file:line: reason`) naming the first fault.
  public static func parse(_ entries: [ConfigEntry], file: String) throws(ConfigError) -> SourcesConfig {
    var names: [String] = []
    var sections: [String: [ConfigEntry]] = [:]
    for entry in entries where entry.section.hasPrefix(sectionPrefix) {
      let name = String(entry.section.dropFirst(sectionPrefix.count))
      if sections[name] == nil { names.append(name) }
      sections[name, default: []].append(entry)
    }
    var faults: [ConfigError] = []
    var config = SourcesConfig(file: file)
    // The daemon validates its own section; a value it refuses leaves the default here.
    for entry in entries where entry.section == "daemon" {
      switch DaemonConfig.DaemonKey(rawValue: entry.key) {
      case .hooksMaxRunning:
        config.maxRunning = (try? SettingKey.integer(entry.value, in: Limits.hooksMaxRunning)) ?? config.maxRunning
      case .hookTimeoutMs:
        config.hookTimeoutMs = (try? SettingKey.integer(entry.value, in: Limits.hookTimeoutMs)) ?? config.hookTimeoutMs
      default:
        break
      }
    }
    for (index, name) in names.enumerated() {
      let section = sections[name]!
      guard index < maxSources else {
        faults.append(
          ConfigError(
            file: file, line: section[0].line,
            reason: "More than \(maxSources) sources: [\(sectionPrefix)\(name)] is source \(index + 1)"))
        break
      }
      do throws(ConfigError) {
        config.sources.append(try SourceSpec.parse(name: name, section, file: file))
      } catch {
        faults.append(error)
      }
    }
    faults += config.ownerFaults()
    if let first = faults.min(by: { $0.line < $1.line }) { throw first }
    return config
  }

  /// The faults between sources: a channel two name, a channel a template makes, two
  /// templates that can make one channel.
  func ownerFaults() -> [ConfigError] {
    var faults: [ConfigError] = []
    var owners: [ChannelName: (source: SourceSpec, line: Int)] = [:]
    var templates: [(template: ChannelTemplate, source: SourceSpec)] = []
    func fault(_ line: Int, _ earlierLine: Int, _ words: String) {
      faults.append(
        ConfigError(
          file: file, line: max(line, earlierLine),
          reason: "\(words) (\(file):\(min(line, earlierLine))); a channel has one source"))
    }
    for source in sources {
      for (name, line) in source.channelLines() {
        if let owner = owners[name] {
          fault(line, owner.line, "Channel '\(name)' of [\(source.section)] is already [\(owner.source.section)]'s")
        }
        for other in templates where other.template.couldMake(name) {
          fault(
            line, other.source.line(of: "channel"),
            "Channel '\(name)' of [\(source.section)] is one [\(other.source.section)]'s template "
              + "'\(other.template)' makes")
        }
        owners[name] = owners[name] ?? (source, line)
      }
      guard case .template(let template) = source.channel else { continue }
      let line = source.line(of: "channel")
      for (name, owner) in owners.sorted(by: { $0.value.line < $1.value.line }) where template.couldMake(name) {
        fault(
          line, owner.line,
          "Template '\(template)' of [\(source.section)] makes channel '\(name)' of [\(owner.source.section)]")
      }
      for other in templates where other.template.overlaps(template) {
        fault(
          line, other.source.line(of: "channel"),
          "Template '\(template)' of [\(source.section)] can make the channels of [\(other.source.section)]'s "
            + "'\(other.template)'")
      }
      templates.append((template, source))
    }
    return faults
  }
}

extension SourceSpec {
  /// `source.NAME`, as messages write the section.
  public var section: String { SourcesConfig.sectionPrefix + name }

  /// Each channel the source names outright, with the line that names it.
  func channelLines() -> [(ChannelName, Int)] {
    guard case .notmuch(let notmuch) = settings else { return fixedChannels.map { ($0, line(of: "channel")) } }
    return notmuch.queries.map { query in
      (query.channel, query.suffix.map { line(of: "query.\($0)") } ?? lines["query"] ?? line(of: "channel"))
    }
  }
}
