# badged: build, run, test and install.
# The two commands a new machine needs: `make run` and `make test`.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release

# Where `make install` puts things (DESTDIR is prepended to each, for packaging).
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
# badgectl-session, which runs badgectl's watch, top, open and stats' count-up: badgectl looks
# for it in ../libexec/badged beside its own folder, so it follows BINDIR.
SESSIONDIR = $(BINDIR)/../libexec/badged
# badged-web's page (web/): badged-web looks for it in ../share/badged/web beside its own
# folder, so it follows BINDIR like SESSIONDIR ([web] root names another).
WEBDIR = $(BINDIR)/../share/badged/web
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/badged
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
# The user units go under the prefix, into a folder of systemd's user unit search path:
# ~/.local/share/systemd/user for a prefix inside the home folder (the default), else
# PREFIX/lib/systemd/user (for /usr, what `pkg-config --variable=systemduserunitdir systemd`
# says). ~/.config/systemd/user stays the user's own, for overrides.
UNITDIR ?= $(if $(filter $(HOME)/%,$(PREFIX)),$(DATADIR)/systemd/user,$(PREFIX)/lib/systemd/user)
# badged-tray's autostart entry, for desktops whose session does not start
# graphical-session.target: the user's own autostart folder for a prefix inside the home
# folder, else the system's (/etc/xdg/autostart).
AUTOSTARTDIR ?= $(if $(filter $(HOME)/%,$(PREFIX)),$(HOME)/.config/autostart,/etc/xdg/autostart)
# The page badged-web serves: every file of web/, installed as they are (no build step).
WEBFILES = $(sort $(wildcard web/*))
# The folder of already built binaries to install; empty: build release binaries first.
BINDIR_SOURCE ?=
# Where `make deb` writes badged_<version>_<arch>.deb.
DEBDIR ?= .

.PHONY: all deps test-deps build release run test lint format fuzz bench install uninstall deb pictures web-motion clean

all: build

# Installs the Debian packages that are missing (apt-get; sudo when not root): to build and
# run, and with test-deps also what the tests use (real status bars, man, zsh, fish).
deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	$(SWIFT) build

# Release binaries with the Swift runtime linked in: badgectl is spawned by status bars every
# second, and a static runtime starts faster (see BENCHMARKS.md); badgectl is a static
# executable altogether (Package.swift), badgectl-session runs what needs libsystemd or ncursesw.
release: deps
	for p in badged badgectl badgectl-session badged-mqtt badged-sources badged-tray badged-web; do $(SWIFT) build -c release --static-swift-stdlib --product $$p || exit 1; done

# Builds and starts the daemon in the foreground on the default socket.
run: build
	exec $(DEBUG_BIN)/badged

# Builds everything, then runs every test (unit and end-to-end against the built binaries),
# then each fuzz target briefly (its seed corpus, which holds every input that once crashed,
# and a few seconds more). The release binaries too: the Debian package test packages them
# (PackageTests). Between the two, a smoke run of `make bench` (every scenario, tiny; it fails
# if one breaks, never for speed). First of all, the style check (`make lint`).
test: test-deps lint build release
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	SWIFT=$(SWIFT) BENCH_SMOKE=1 BENCH_JSON=.build/bench/smoke.jsonl bench/run >/dev/null
	SWIFT=$(SWIFT) scripts/fuzz $(FUZZ_TEST_SECONDS)

# The code's style (.swift-format: the toolchain's swift-format with two-space indentation and
# lines of 120): `lint` fails on any finding, `format` rewrites the files to it.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Package.swift

# Runs each libFuzzer target (Tests/Fuzz) for FUZZ_SECONDS; FUZZ_TARGETS picks some of
# request, config, recovery, bus, mqtt, sources and imap. Exits 1 on a crash, hang or leak
# (input in .build-fuzz/crashes).
FUZZ_SECONDS ?= 600
FUZZ_TEST_SECONDS ?= 15
FUZZ_TARGETS ?=
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Binaries, the systemd user units (ExecStart= pointing at BINDIR; badged-mqtt's,
# badged-sources' and badged-tray's too, and badged-tray's autostart entry) with the opt-in sandbox drop-ins beside them
# (badged.service.d/sandbox.conf.disabled, see badged(1); badged-mqtt.service.d/, see
# badged-mqtt(1); badged-sources.service.d/, see badged-sources(1)), man pages, the example
# config and completions for bash, zsh and fish. Then: systemctl --user enable --now
# badged.socket (badged-mqtt.service to share channels, badged-sources.service to count mail,
# badged-tray.service for the tray, badged-web.service for the web view; its page goes to WEBDIR)
install: $(if $(BINDIR_SOURCE),,release)
	$(eval SOURCE := $(or $(BINDIR_SOURCE),$(RELEASE_BIN)))
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SESSIONDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(DOCDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(AUTOSTARTDIR) \
	  $(DESTDIR)$(WEBDIR)
	install -m 0755 $(SOURCE)/badged $(SOURCE)/badgectl $(SOURCE)/badged-mqtt $(SOURCE)/badged-sources $(SOURCE)/badged-tray \
	  $(SOURCE)/badged-web $(DESTDIR)$(BINDIR)/
	install -m 0644 $(WEBFILES) $(DESTDIR)$(WEBDIR)/
	install -m 0755 $(SOURCE)/badgectl-session $(DESTDIR)$(SESSIONDIR)/
	for unit in badged.service badged-mqtt.service badged-sources.service badged-tray.service badged-web.service; do \
	  sed 's|@bindir@|$(BINDIR)|g' systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit && chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit || exit 1; \
	done
	sed 's|@bindir@|$(BINDIR)|g' xdg/badged-tray.desktop > $(DESTDIR)$(AUTOSTARTDIR)/badged-tray.desktop
	chmod 0644 $(DESTDIR)$(AUTOSTARTDIR)/badged-tray.desktop
	install -m 0644 systemd/badged.socket $(DESTDIR)$(UNITDIR)/
	for unit in badged.service badged-mqtt.service badged-sources.service; do \
	  install -d $(DESTDIR)$(UNITDIR)/$$unit.d && \
	  install -m 0644 systemd/$$unit.d/sandbox.conf $(DESTDIR)$(UNITDIR)/$$unit.d/sandbox.conf.disabled || exit 1; \
	done
	install -m 0644 man/badged.1 man/badgectl.1 man/badged-mqtt.1 man/badged-sources.1 man/badged-tray.1 \
	  man/badged-web.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 man/badged.conf.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 config/badged.conf $(DESTDIR)$(DOCDIR)/
	$(SOURCE)/badgectl --generate-completion bash > $(DESTDIR)$(BASHCOMPDIR)/badgectl
	$(SOURCE)/badgectl --generate-completion zsh > $(DESTDIR)$(ZSHCOMPDIR)/_badgectl
	$(SOURCE)/badgectl --generate-completion fish > $(DESTDIR)$(FISHCOMPDIR)/badgectl.fish
	install -m 0644 completions/badged.bash $(DESTDIR)$(BASHCOMPDIR)/badged
	install -m 0644 completions/_badged $(DESTDIR)$(ZSHCOMPDIR)/_badged
	install -m 0644 completions/badged.fish $(DESTDIR)$(FISHCOMPDIR)/badged.fish
	@echo "Installed. Start it with: systemctl --user daemon-reload && systemctl --user enable --now badged.socket"
	@echo "To share channels through an MQTT broker ([mqtt] in badged.conf): systemctl --user enable --now badged-mqtt.service"
	@echo "To count unread mail, commands and files ([source.NAME] in badged.conf): systemctl --user enable --now badged-sources.service"
	@echo "For the counts in the desktop's tray ([tray] in badged.conf): systemctl --user enable --now badged-tray.service"
	@echo "For the counts on a phone or in a browser ([web] in badged.conf): systemctl --user enable --now badged-web.service, then badgectl web link"

# Removes exactly what `make install` put (same variables). Disable the units first:
# systemctl --user disable --now badged-web.service badged-tray.service badged-sources.service badged-mqtt.service badged.socket badged.service
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/badged $(DESTDIR)$(BINDIR)/badgectl $(DESTDIR)$(BINDIR)/badged-mqtt $(DESTDIR)$(BINDIR)/badged-sources
	rm -f $(DESTDIR)$(BINDIR)/badged-tray $(DESTDIR)$(AUTOSTARTDIR)/badged-tray.desktop $(DESTDIR)$(BINDIR)/badged-web
	rm -f $(addprefix $(DESTDIR)$(WEBDIR)/,$(notdir $(WEBFILES)))
	-rmdir $(DESTDIR)$(WEBDIR) $(DESTDIR)$(WEBDIR)/.. 2>/dev/null
	rm -f $(DESTDIR)$(SESSIONDIR)/badgectl-session
	-rmdir $(DESTDIR)$(SESSIONDIR) 2>/dev/null
	rm -f $(DESTDIR)$(UNITDIR)/badged.service $(DESTDIR)$(UNITDIR)/badged.socket $(DESTDIR)$(UNITDIR)/badged-mqtt.service
	rm -f $(DESTDIR)$(UNITDIR)/badged-sources.service $(DESTDIR)$(UNITDIR)/badged-tray.service
	rm -f $(DESTDIR)$(UNITDIR)/badged-web.service
	for unit in badged.service badged-mqtt.service badged-sources.service; do \
	  rm -f $(DESTDIR)$(UNITDIR)/$$unit.d/sandbox.conf.disabled $(DESTDIR)$(UNITDIR)/$$unit.d/sandbox.conf; \
	  rmdir $(DESTDIR)$(UNITDIR)/$$unit.d 2>/dev/null || true; \
	done
	rm -f $(DESTDIR)$(MANDIR)/man1/badged.1 $(DESTDIR)$(MANDIR)/man1/badgectl.1 $(DESTDIR)$(MANDIR)/man1/badged-mqtt.1
	rm -f $(DESTDIR)$(MANDIR)/man1/badged-sources.1 $(DESTDIR)$(MANDIR)/man1/badged-tray.1
	rm -f $(DESTDIR)$(MANDIR)/man1/badged-web.1
	rm -f $(DESTDIR)$(MANDIR)/man5/badged.conf.5
	rm -f $(DESTDIR)$(DOCDIR)/badged.conf
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
	rm -f $(DESTDIR)$(BASHCOMPDIR)/badgectl $(DESTDIR)$(BASHCOMPDIR)/badged
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_badgectl $(DESTDIR)$(ZSHCOMPDIR)/_badged
	rm -f $(DESTDIR)$(FISHCOMPDIR)/badgectl.fish $(DESTDIR)$(FISHCOMPDIR)/badged.fish

# The Debian package, from the static release binaries (or BINDIR_SOURCE's), with dpkg-deb;
# see docs/PACKAGING.md. Check it with: lintian badged_*.deb
deb: $(if $(BINDIR_SOURCE),,release)
	@scripts/install-deps --package
	scripts/build-deb $(or $(BINDIR_SOURCE),$(RELEASE_BIN)) $(DEBDIR)

# Regenerates every picture in docs/pictures from the real programs: the bars from the
# real-bar tests' headless runs (dark and light), the motion recorded frame by frame from
# Waybar and xterm, the plot of the motion curves, and tmux's status line in xterm; see
# scripts/pictures/make-pictures.
pictures: test-deps build
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/pictures/make-pictures docs/pictures

# Writes web/motion.js's table of curves again from the Swift motion engine (BadgeMotions,
# TopMotions, CountUp, HoldRepeat), which WebMotionTableTests checks it against.
web-motion:
	$(SWIFT) build --build-tests
	BADGED_WRITE_WEB_MOTION=1 $(SWIFT) test --skip-build --filter WebMotionTableTests

clean:
	rm -rf .build

# badged beside Redis, driven by one generator (badged-bench), release build; prints a table
# of medians and ratios. BENCH_SMOKE=1: a tiny run of every scenario, which `make test` also
# runs so the harness keeps working. See BENCHMARKS.md.
bench:
	@scripts/install-deps --bench
	SWIFT=$(SWIFT) bench/run
