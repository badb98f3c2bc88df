// The BadgeProtocol module.
