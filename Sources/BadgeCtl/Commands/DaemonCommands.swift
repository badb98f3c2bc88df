import BadgeProtocol

/// `badgectl list`
struct ListCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "list", abstract: "Print every channel that has a count or a setting.",
    discussion: "One line (or JSON object) per channel, by name.",
    options: [CommandSpec.formatOption])

  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  var request: Request { .list }
}

/// `badgectl reload`
struct ReloadCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "reload", abstract: "Make the daemon re-read its config file.",
    discussion: """
      Does what SIGHUP does: a valid file applies to every channel, and watchers are sent the
      channels whose label or style changed. A broken file is refused with file:line: reason
      (exit status 1) and the daemon keeps its old config.
      """)

  init(_ arguments: inout CommandArguments) {}

  var request: Request { .reload }
}

/// `badgectl ping`
struct PingCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "ping", abstract: "Check that the daemon answers.",
    discussion: "Exits 0 when it does, 69 when it cannot be reached.")

  init(_ arguments: inout CommandArguments) {}

  var request: Request { .ping }
}
