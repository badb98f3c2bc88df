import Testing

@testable import BadgeCore
@testable import BadgeRender

/// A snapshot as the daemon sends it, with the daemon's label rules (max_label 99).
func snapshot(
  _ channel: String = "mail", count: Int, dot: Bool = false, pulseMs: Int = 0,
  muted: Bool = false, online: Bool = true
) -> ChannelSnapshot {
  let settings = ChannelSettings(maxLabel: 99, style: dot ? .dot : .count, pulseMs: 0, muted: muted)
  return ChannelSnapshot(
    channel: channel, count: count, label: Label.text(count: count, settings: settings), dot: dot,
    pulseMs: pulseMs, muted: muted, seq: 1, online: online)
}

/// The escape character, to keep expected terminal strings readable.
let esc = "\u{1B}"
