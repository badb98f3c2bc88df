/// BadgeSystem's users see the plain system calls' wrappers (file descriptors, Unix sockets,
/// `Errno`, the environment, signals, XDG paths, local time) as part of it: they live in BadgePOSIX, below
/// it, so that `badgectl`'s one-shot commands use them without linking libsystemd.
@_exported import BadgePOSIX
