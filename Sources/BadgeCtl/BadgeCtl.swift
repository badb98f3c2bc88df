// The BadgeCtl module.
