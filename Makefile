# badged: build, run, test and install.
# The two commands a new machine needs: `make run` and `make test`.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX ?= $(HOME)/.local
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release

.PHONY: all deps build release run test bench clean

all: build

# Installs the Debian packages that are missing (apt-get; sudo when not root).
deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

# Release binaries with the Swift runtime linked in: badgectl is spawned by status bars every
# second, and a static runtime starts faster (see BENCHMARKS.md).
release: deps
	for p in badged badgectl; do $(SWIFT) build -c release --static-swift-stdlib --product $$p || exit 1; done

# Builds and starts the daemon in the foreground on the default socket.
run: build
	exec $(DEBUG_BIN)/badged

# Builds everything, then runs every test (unit and end-to-end against the built binaries).
test: build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build

# Measures throughput and state size (release build); see BENCHMARKS.md.
bench: deps
	SWIFT=$(SWIFT) bench/run
