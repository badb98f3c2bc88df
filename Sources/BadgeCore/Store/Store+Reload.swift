extension Store {
  /// Puts a new config in force (a reload), calling `changed` with every channel whose settings
  /// changed and every channel a new `[channel NAME]` section brings into `LIST`. Counts,
  /// overrides and `seq` stay; a channel whose section went away is forgotten when it has no
  /// count and no setting left (its total stays in `totalFloor`, and taking back the changes
  /// before the reload keeps it there). A lower `max_channels` refuses new channels and keeps
  /// the ones there are.
  public func reconfigure(_ newConfig: ChannelConfig, changed: (Channel) -> Void) {
    config = newConfig
    var i = 0
    while i < channels.count {
      let before = channels[i].settings
      let wasSilenced = channels[i].silenced
      let pulsed = channels[i].pulseUntil
      applyConfig(to: &channels[i])
      if channels[i].pulseUntil != pulsed { queuePulse(at: i) }
      if channels[i].settings != before || channels[i].silenced != wasSilenced { changed(channels[i]) }
      if channels[i].isListed {
        i += 1
      } else {
        let total = channels[i].total
        forget(at: i)
        undo.totalFloorKept(past: total)
      }
    }
    createConfiguredChannels(created: changed)
  }

  /// Puts the config's settings for the channel in force; a muted or silenced channel stops
  /// pulsing (the caller puts the pulse queue in line).
  func applyConfig(to channel: inout Channel) {
    let (configured, matched) = config.settings(for: channel.name, sourced: channel.isSourced)
    channel.configure(configured, hasConfigSection: matched)
    channel.silenced = silencing(channel.settings)
    if channel.settings.muted || channel.silenced != nil { channel.pulseUntil = 0 }
  }

  /// Channels named by an exact `[channel NAME]` section exist (and are listed) from the start.
  func createConfiguredChannels(created: (Channel) -> Void = { _ in }) {
    for section in config.sections {
      if let name = section.pattern.exactName, slot(of: name) == nil {
        let channel = newChannel(name)
        store(channel, at: nil)
        created(channel)
      }
    }
  }
}
