import BadgeCore

/// A channel name from a literal the test knows to be valid.
func name(_ text: String) -> ChannelName { ChannelName(text)! }
