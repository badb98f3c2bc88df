// The BadgeSystem module.
