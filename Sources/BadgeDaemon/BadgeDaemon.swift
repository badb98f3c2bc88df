// The BadgeDaemon module.
