// The BadgeMotion module.
