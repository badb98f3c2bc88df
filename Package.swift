// swift-tools-version:6.0
// The layout follows docs/ARCHITECTURE.md: pure modules below, one module (BadgeSystem)
// that talks to the operating system, and two thin executables on top.
import PackageDescription

/// The daemon's modules skip Swift's run-time exclusivity checks in release builds: the checks
/// (`swift_beginAccess` on every class-property access) are a large share of a request's
/// instructions (BENCHMARKS.md), and debug builds, which every test runs, keep them, so an
/// overlapping access is still caught there. See docs/ARCHITECTURE.md, "Decisions".
let daemonSettings: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

/// The server's core is generic over the daemon's client type: release builds let the daemon
/// specialize it (cross-module optimization), so its fan-out loops run as if they were written
/// for the daemon's `Connection`.
let coreSettings: [SwiftSetting] =
  daemonSettings + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
  name: "badged",
  products: [
    .executable(name: "badged", targets: ["badged"]),
    .executable(name: "badgectl", targets: ["badgectl"]),
    .executable(name: "badgectl-session", targets: ["badgectl-session"]),
    .executable(name: "badged-mqtt", targets: ["badged-mqtt"]),
    .executable(name: "badged-sources", targets: ["badged-sources"]),
    .executable(name: "badged-tray", targets: ["badged-tray"]),
    .executable(name: "badged-web", targets: ["badged-web"]),
  ],
  targets: [
    // C libraries from Debian, reached through pkg-config.
    .systemLibrary(
      name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(name: "CInih", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // libmosquitto, the MQTT 5 client of badged-mqtt (Debian's, with OpenSSL).
    .systemLibrary(
      name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
    // Glibc calls Swift's Glibc module leaves out (accept4, malloc_trim), as inline C functions.
    .systemLibrary(name: "CLinux"),
    // ncurses with wide characters, for `badgectl top` (terminfo, cell diffing, keys, mouse).
    // Not through pkg-config: ncursesw.pc's only flags are -D_DEFAULT_SOURCE and
    // -D_XOPEN_SOURCE=600, which SwiftPM refuses with a warning; the shim defines what it needs
    // and the module map names the libraries (`pkg-config --libs ncursesw`).
    .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
    // libnotmuch, which badged-sources counts a notmuch database with. Not through pkg-config:
    // Debian 12's libnotmuch-dev has no .pc file; the module map names the library.
    .systemLibrary(name: "CNotmuch", providers: [.apt(["libnotmuch-dev"])]),
    // GnuTLS, the TLS of the IMAP source's connections (the system trust store, names verified).
    .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),
    // libsecret, the Secret Service client the IMAP source reads a password from.
    .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
    // cairo and pango, which badged-tray draws its icons with (the module map names the libraries
    // `pkg-config --libs pangocairo` prints; SwiftPM drops its -pthread with a warning).
    // libmicrohttpd: badged-web's HTTP server, run from the program's sd-event loop.
    .systemLibrary(
      name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    // libqrencode: the QR code of `badgectl web link`.
    .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
    .systemLibrary(
      name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),

    // Pure code: no I/O, no clock of its own.
    // The channel model: channels, names, patterns, settings, the store, request ids, history,
    // do-not-disturb, the one form of a write.
    .target(name: "BadgeCore", swiftSettings: daemonSettings),
    // The log's rules: levels, fields, the sink lines go to, warnings that repeat.
    .target(name: "BadgeLog", swiftSettings: daemonSettings),
    // The programs' command lines: the options badged and badged-mqtt share.
    .target(name: "BadgeOptions", dependencies: ["BadgeLog"], swiftSettings: daemonSettings),
    // Feedback hooks: their commands and events, when runs start, what they print.
    .target(name: "BadgeHooks", dependencies: ["BadgeCore", "BadgeLog"], swiftSettings: daemonSettings),
    // badged.conf: its entries read into a config, checked, and the store's view of it.
    .target(name: "BadgeConfig", dependencies: ["BadgeCore", "BadgeHooks"], swiftSettings: daemonSettings),
    .target(name: "BadgeProtocol", dependencies: ["BadgeCore"], swiftSettings: daemonSettings),
    .target(name: "BadgeMotion"),
    .target(name: "BadgeRender", dependencies: ["BadgeCore", "BadgeMotion"]),
    // The dashboard of `badgectl top`: its components, state and drawing, on a canvas.
    .target(name: "BadgeTop", dependencies: ["BadgeCore", "BadgeProtocol", "BadgeMotion", "BadgeRender"]),
    // The on-disk format: records with lengths and checksums (zlib's CRC-32), no file I/O; a
    // forwarded write is kept as its request line, written and read by BadgeProtocol.
    .target(
      name: "BadgePersistence", dependencies: ["BadgeCore", "BadgeProtocol", "CZlib"], swiftSettings: daemonSettings),
    // The session-bus links' decisions (desktop ids to channels, LauncherEntry merging,
    // notification counting), kept apart from sd-bus so that they are tested without a bus.
    .target(name: "BadgeBus", dependencies: ["BadgeCore"]),
    // badged-mqtt's decisions, kept apart from the broker and the socket so that they are
    // tested without either: the [mqtt] config, topics and payloads (with their own bounded
    // JSON), claims, do-not-disturb's last writer, coalescing, the delivery of forwarded
    // writes, and every word said to the daemon (DaemonLink).
    .target(name: "BadgeMesh", dependencies: ["BadgeCore", "BadgeProtocol", "BadgeConfig", "BadgeLog"]),
    // badged-sources' decisions, kept apart from inotify, directories, libnotmuch and processes so
    // that they are tested without any: the [source.*] config, Maildir names and layouts, channel
    // templates, counts read from commands, each channel's items, writes and their ids, health.
    .target(
      name: "BadgeSources", dependencies: ["BadgeCore", "BadgeProtocol", "BadgeConfig", "BadgeHooks", "BadgeLog"]),

    // badged-tray's decisions, kept apart from the session bus and the drawing so that they are
    // tested without either: the [tray] config, each item's group of channels as one badge, its
    // tooltip and status, and the menu's revisions and what a click on each entry does.
    .target(
      name: "BadgeTray", dependencies: ["BadgeCore", "BadgeBus", "BadgeConfig", "BadgeProtocol", "BadgeRender"]),

    // The IMAP protocol, pure: a bounded response parser, the commands and SASL responses, and
    // ImapSession, the state machine of one connection fed bytes (badged-sources' IMAP source).
    .target(name: "BadgeIMAP"),

    // The server's decisions, pure: what each request means, the turn's group commit, who
    // watches what and the fan-out, what happens while the state cannot be saved. No clock,
    // no socket: the compiler keeps the operating system out.
    .target(
      name: "BadgeServer", dependencies: ["BadgeCore", "BadgeProtocol", "BadgeConfig", "BadgeLog"],
      swiftSettings: coreSettings),

    // The system calls that need no library but glibc: file descriptors, Unix sockets, errno,
    // the environment, signals, XDG paths, local time. BadgeSystem re-exports it; badgectl's one-shot
    // commands use it alone, so badgectl links neither libsystemd nor ncursesw.
    .target(name: "BadgePOSIX", dependencies: ["BadgeCore", "CLinux"], swiftSettings: daemonSettings),

    // The only module that imports CSystemd and CInih (and, with BadgePOSIX, Glibc for I/O and
    // CLinux); of ours it knows the model only.
    .target(
      name: "BadgeSystem",
      dependencies: ["BadgeCore", "BadgeConfig", "BadgeLog", "BadgePOSIX", "CSystemd", "CInih", "CLinux"],
      swiftSettings: daemonSettings),

    // Every client program's connection to badged (the session of BadgeProtocol on the
    // sd-event loop): buffered non-blocking output, bounded input, reconnection with backoff.
    .target(name: "BadgeClient", dependencies: ["BadgeCore", "BadgeLog", "BadgeProtocol", "BadgeSystem"]),

    // The only module that talks to the terminal through curses: it shows a BadgeTop canvas
    // and decodes keys and the mouse.
    .target(name: "BadgeScreen", dependencies: ["BadgeTop", "BadgeRender", "CNcurses"]),

    // The only module that talks to the MQTT broker, through libmosquitto, non-threaded on the
    // sd-event loop.
    .target(name: "BadgeMosquitto", dependencies: ["BadgeMesh", "BadgeLog", "BadgeSystem", "CMosquitto"]),

    // The only module that talks to notmuch, through libnotmuch: a database's revision and
    // UUID, counts and message ids of queries, marking read; where its Xapian folder is.
    .target(name: "BadgeNotmuch", dependencies: ["BadgePOSIX", "CNotmuch"]),

    // The only module that talks to an IMAP server's socket and to where its password is kept:
    // TCP with keepalive, TLS through GnuTLS, blocking reads woken by an eventfd (each
    // connection has a thread of its own), and the password from a file, a command or the
    // Secret Service (libsecret).
    .target(name: "BadgeIMAPClient", dependencies: ["BadgeSystem", "CGnuTLS", "CSecret"]),

    // The tray icon's pixels: the bell or an app's PNG with the badge of a BadgeFrame, drawn with
    // cairo and pango at every size a StatusNotifierItem host asks for; where an app's PNG icon is.
    .target(name: "BadgeTrayDraw", dependencies: ["BadgeCore", "BadgeRender", "BadgeBus", "CPangoCairo"]),

    // What badged-web decides, without a socket: its [web] section, the tokens, who may do what,
    // the routes of the page and the JSON API, the event stream's ids and resume.
    .target(
      name: "BadgeWeb",
      dependencies: ["BadgeCore", "BadgeConfig", "BadgeProtocol", "BadgeRender", "CGnuTLS", "CLinux"]),

    // The daemon and the CLI as libraries, so that tests can reach their parts.
    .target(
      name: "BadgeDaemon",
      dependencies: [
        "BadgeCore", "BadgeProtocol", "BadgeConfig", "BadgeHooks", "BadgeLog", "BadgeOptions", "BadgePersistence",
        "BadgeBus", "BadgeServer", "BadgeSystem",
      ],
      swiftSettings: daemonSettings),
    // badgectl: its command table and the one-shot commands, on BadgePOSIX alone.
    .target(
      name: "BadgeCtl", dependencies: ["BadgeCore", "BadgeProtocol", "BadgeBus", "BadgePOSIX", "BadgeRender"]),
    // What badgectl hands to badgectl-session: watch and top on an sd-event loop (top through
    // curses), open on the session bus, stats' count-up.
    .target(
      name: "BadgeCtlSession",
      dependencies: [
        "BadgeCore", "BadgeProtocol", "BadgeBus", "BadgeCtl", "BadgeClient", "BadgeSystem", "BadgeRender",
        "BadgeTop", "BadgeScreen", "BadgeConfig", "BadgeWeb", "CQRencode",
      ]),

    // badged-mqtt as a library, like the daemon: its command line, config and the files it
    // names, the connections around its core.
    .target(
      name: "BadgeMQTT",
      dependencies: [
        "BadgeCore", "BadgeProtocol", "BadgeClient", "BadgeConfig", "BadgeLog", "BadgeOptions", "BadgeMesh",
        "BadgeMosquitto", "BadgeSystem",
      ]),

    // badged-sources as a library, like badged-mqtt: its command line and config, and the I/O
    // its sources stand on (exec runs, resume from suspend).
    .target(
      name: "BadgeSourcesProgram",
      dependencies: [
        "BadgeClient", "BadgeCore", "BadgeConfig", "BadgeHooks", "BadgeIMAP", "BadgeIMAPClient", "BadgeLog",
        "BadgeNotmuch", "BadgeOptions", "BadgeProtocol", "BadgeSources", "BadgeSystem",
      ]),

    // badged-tray as a library: its command line, the items on the session bus, their frames.
    .target(
      name: "BadgeTrayProgram",
      dependencies: [
        "BadgeBus", "BadgeClient", "BadgeCore", "BadgeConfig", "BadgeLog", "BadgeOptions", "BadgePOSIX",
        "BadgeProtocol", "BadgeRender", "BadgeSystem", "BadgeTray", "BadgeTrayDraw",
      ]),

    // badged-web as a library: libmicrohttpd on the sd-event loop, the streams, the feed from badged.
    .target(
      name: "BadgeWebProgram",
      dependencies: [
        "BadgeClient", "BadgeCore", "BadgeConfig", "BadgeLog", "BadgeOptions", "BadgePOSIX", "BadgeProtocol",
        "BadgeSystem", "BadgeWeb", "CMicroHTTPD",
      ]),

    .executableTarget(name: "badged", dependencies: ["BadgeDaemon"]),
    .executableTarget(name: "badged-mqtt", dependencies: ["BadgeMQTT"]),
    .executableTarget(name: "badged-sources", dependencies: ["BadgeSourcesProgram"]),
    .executableTarget(name: "badged-tray", dependencies: ["BadgeTrayProgram"]),
    .executableTarget(name: "badged-web", dependencies: ["BadgeWebProgram"]),
    // badgectl's release build is one static executable, with glibc linked in: status bars
    // spawn it every second, and with no dynamic loader to run (no libraries to map, no
    // symbols to look up) it starts in a fraction of the time (BENCHMARKS.md, "badgectl
    // start-up"). It can be, since it links no library but glibc's: libsystemd and ncursesw
    // are badgectl-session's (docs/ARCHITECTURE.md, "badgectl's two programs").
    .executableTarget(
      name: "badgectl", dependencies: ["BadgeCtl"],
      linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]),
    .executableTarget(name: "badgectl-session", dependencies: ["BadgeCtlSession"]),
    // The load generator of `make bench` (BENCHMARKS.md); not installed. CEpoll shows it
    // <sys/epoll.h>, which Swift's Glibc module leaves out.
    .systemLibrary(name: "CEpoll"),
    .executableTarget(name: "badged-bench", dependencies: ["BadgePOSIX", "CEpoll"]),

    // Helpers shared by the test targets.
    .target(name: "TestSupport", dependencies: ["BadgeCore", "BadgeLog"], path: "Tests/TestSupport"),
    // Test tool: runs a program under the seccomp rules systemd installs for badged.service's
    // options (libseccomp, from libseccomp-dev).
    .executableTarget(
      name: "seccomp-run", path: "Tests/Tools/seccomp-run", linkerSettings: [.linkedLibrary("seccomp")]),

    .testTarget(name: "BadgeCoreTests", dependencies: ["BadgeCore", "BadgeConfig", "TestSupport"]),
    .testTarget(name: "BadgeLogTests", dependencies: ["BadgeLog"]),
    .testTarget(name: "BadgeOptionsTests", dependencies: ["BadgeOptions"]),
    .testTarget(name: "BadgeHooksTests", dependencies: ["BadgeHooks", "BadgeCore", "TestSupport"]),
    .testTarget(name: "BadgeConfigTests", dependencies: ["BadgeConfig", "BadgeCore"]),
    .testTarget(
      name: "BadgeProtocolTests", dependencies: ["BadgeProtocol", "BadgeCore", "BadgeConfig", "TestSupport"]),
    .testTarget(name: "BadgeBusTests", dependencies: ["BadgeBus"]),
    // badged-tray's core with plain values: config messages, groups, tooltips, menu revisions; and
    // the shipped example's [tray] section, read as badged-tray reads it.
    .testTarget(
      name: "BadgeTrayTests",
      dependencies: [
        "BadgeTray", "BadgeCore", "BadgeConfig", "BadgeProtocol", "BadgeRender", "BadgeSystem", "TestSupport",
      ]),
    // badged-sources' core with plain values: config messages, names, counts, writes, time by hand.
    .testTarget(
      name: "BadgeSourcesTests",
      dependencies: ["BadgeSources", "BadgeCore", "BadgeConfig", "BadgeLog", "BadgeProtocol", "TestSupport"]),
    // BadgeIMAP against scripted transcripts of dovecot's replies, fed whole and a byte at a time.
    .testTarget(name: "BadgeIMAPTests", dependencies: ["BadgeIMAP"]),
    .testTarget(
      name: "BadgeMeshTests",
      dependencies: ["BadgeMesh", "BadgeCore", "BadgeProtocol", "BadgeConfig", "BadgeLog", "TestSupport"]),
    .testTarget(
      name: "BadgePersistenceTests", dependencies: ["BadgePersistence", "BadgeCore", "BadgeConfig", "TestSupport"]),
    .testTarget(name: "BadgeMotionTests", dependencies: ["BadgeMotion", "TestSupport"]),
    .testTarget(name: "BadgeRenderTests", dependencies: ["BadgeRender", "TestSupport"]),
    // The tray icon's pixels read back: the capsule's size and place, dot, muted and hidden looks,
    // app PNGs found in a hicolor tree of each test's own.
    .testTarget(
      name: "BadgeTrayDrawTests",
      dependencies: ["BadgeTrayDraw", "BadgeRender", "BadgeBus", "BadgeCore", "CPangoCairo"]),
    .testTarget(
      name: "BadgeTopTests",
      dependencies: ["BadgeTop", "BadgeMotion", "BadgeRender", "BadgeCore", "BadgeProtocol", "TestSupport"]),
    .testTarget(
      name: "BadgeSystemTests", dependencies: ["BadgeSystem", "BadgeCore", "BadgeConfig", "BadgeLog", "TestSupport"]),
    // BadgeNotmuch against the real `notmuch new`, `notmuch tag` and `notmuch compact` on a
    // Maildir and config of each test's own, and what BadgeSystem's Inotify sees of a writer
    // in the Xapian folder.
    .testTarget(
      name: "BadgeNotmuchTests",
      dependencies: ["BadgeNotmuch", "BadgeSources", "BadgeSourcesProgram", "BadgeSystem", "TestSupport"]),
    // BadgeIMAPClient against real servers: `openssl s_server` with a CA each test makes,
    // commands that print, fail and hang, and gnome-keyring on a private session bus.
    .testTarget(name: "BadgeIMAPClientTests", dependencies: ["BadgeIMAPClient", "BadgeSystem", "TestSupport"]),
    // badged-sources' command line, and its exec runs and resume watch on a real event loop
    // with real children and a private system bus.
    .testTarget(
      name: "BadgeSourcesProgramTests",
      dependencies: ["BadgeSourcesProgram", "BadgeHooks", "BadgeLog", "BadgeOptions", "BadgeSystem", "TestSupport"]),
    // badgectl's command line read into its commands' types, every good and bad form, with no
    // daemon: nothing here connects.
    .testTarget(name: "BadgeCtlTests", dependencies: ["BadgeCtl", "BadgeCtlSession", "BadgeCore", "BadgeRender"]),
    // badged-web's decisions: its config, tokens, access, routes, JSON and the stream's resume.
    .testTarget(
      name: "BadgeWebTests", dependencies: ["BadgeWeb", "BadgeCore", "BadgeConfig", "BadgeSystem", "TestSupport"]),
    // The server's core in-process, without sockets or a clock: commands, the turn, group
    // commit, fan-out, long replies.
    .testTarget(
      name: "BadgeServerTests",
      dependencies: ["BadgeServer", "BadgeCore", "BadgeProtocol", "BadgeConfig", "BadgeLog", "TestSupport"]),
    // The daemon's own parts around the core: its connections' life, their reading, sending and
    // deadlines, the acceptor, the outbox's budget, on a real event loop with sockets and a
    // clock of the test's (ServerHarness).
    .testTarget(
      name: "BadgeDaemonTests",
      dependencies: [
        "BadgeDaemon", "BadgeCore", "BadgeConfig", "BadgeLog", "BadgeProtocol", "BadgeServer", "BadgeSystem",
        "TestSupport",
      ]),
    // Power cuts: the real Persistence and Recovery under a recorded trace (see ARCHITECTURE.md).
    .testTarget(
      name: "CrashConsistencyTests",
      dependencies: [
        "BadgeCore", "BadgeConfig", "BadgeLog", "BadgeDaemon", "BadgePersistence", "BadgeSystem", "TestSupport",
      ]),
    // The built programs, started for real; and badged-mqtt's link to the broker against a real
    // mosquitto (BadgeMosquitto, on an event loop of the test's).
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "BadgeCore", "BadgeConfig", "BadgeProtocol", "BadgePersistence", "BadgeMesh", "BadgeMosquitto", "BadgeSystem",
        "BadgeClient", "BadgeNotmuch", "BadgeTray", "BadgeWeb", "TestSupport",
      ],
      // State folders an older badged wrote, read by OlderStateTests from the checkout.
      exclude: ["Fixtures"]),
  ]
)

// libFuzzer targets (Tests/Fuzz, `make fuzz`): executables with no main of their own, which
// link only with `--sanitize=fuzzer`, so they exist only when the build asks for them.
if Context.environment["BADGED_FUZZ"] != nil {
  package.targets += [
    .target(name: "FuzzSupport", path: "Tests/Fuzz/FuzzSupport"),
    .executableTarget(name: "FuzzRequest", dependencies: ["BadgeProtocol"], path: "Tests/Fuzz/FuzzRequest"),
    .executableTarget(
      name: "FuzzConfig", dependencies: ["BadgeCore", "BadgeConfig", "BadgeDaemon", "FuzzSupport"],
      path: "Tests/Fuzz/FuzzConfig"),
    .executableTarget(
      name: "FuzzRecovery",
      dependencies: ["BadgeCore", "BadgeLog", "BadgeDaemon", "BadgePersistence", "BadgeSystem", "FuzzSupport"],
      path: "Tests/Fuzz/FuzzRecovery"),
    .executableTarget(
      name: "FuzzBus", dependencies: ["BadgeBus", "BadgeCore", "BadgeConfig"], path: "Tests/Fuzz/FuzzBus"),
    .executableTarget(
      name: "FuzzMQTT", dependencies: ["BadgeCore", "BadgeLog", "BadgeMesh", "BadgeProtocol"],
      path: "Tests/Fuzz/FuzzMQTT"),
    .executableTarget(
      name: "FuzzSources", dependencies: ["BadgeConfig", "BadgeCore", "BadgeSources", "BadgeSystem", "FuzzSupport"],
      path: "Tests/Fuzz/FuzzSources"),
    .executableTarget(name: "FuzzIMAP", dependencies: ["BadgeIMAP"], path: "Tests/Fuzz/FuzzIMAP"),
  ]
}
