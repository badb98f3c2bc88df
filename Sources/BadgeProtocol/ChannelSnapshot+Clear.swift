import BadgeCore

extension ChannelSnapshot {
  /// The request that clears what this state shows and nothing newer: a clear up to the
  /// running total shown (`CLEAR <channel> upto=<total>`), so an item that arrived after it
  /// stays; a clear of every item when the daemon sent no total. What every client's click
  /// sends (`watch`, `top`). `nil` for a channel name no request can carry (a state line the
  /// decoder read has none).
  public var clearRequest: Request? {
    ChannelName(channel).map { .write($0, .clear(upTo: total)) }
  }
}
