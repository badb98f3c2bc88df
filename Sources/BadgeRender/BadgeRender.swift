// The BadgeRender module.
