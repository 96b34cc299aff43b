# A thin front for CMake.  `make demo` and `make check` are all a new machine
# needs: each installs missing packages first (scripts/install-deps).
JOBS ?= 2

.PHONY: all deps build asan release fuzz fuzz-long check check-dev check-asan check-hardening analyze demo stand-in stand-in-stop bench install package clean real-server

all: build

deps:
	@scripts/install-deps --check >/dev/null 2>&1 || scripts/install-deps

build: deps
	cmake --preset dev >/dev/null
	cmake --build --preset dev -j $(JOBS)
	@ln -sf build/dev/compile_commands.json compile_commands.json

asan: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

release: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

# The real llama-server the tests in tests/cli/real_server*.sh run against,
# built from the llama.cpp source inside node-llama-cpp's npm package into a
# cache outside the checkout (scripts/real-server; install-deps runs it).
real-server:
	scripts/real-server

# libFuzzer binaries (clang): build/fuzz/tests/fuzz_<name>.
fuzz: deps
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz -j $(JOBS)

# Every fuzz target for FUZZ_SECONDS each (default 10 minutes), one after
# another: execs, coverage and crashes per target in build/fuzz/fuzz-long.log
# (tools/fuzz-long.sh); fails when a target found a crash.  FUZZ_RUNS=N stops
# each target after N executions instead (FUZZ_SECONDS is then a cap, by
# default none): `make fuzz-long FUZZ_RUNS=10000000`.  FUZZ_FORK=J runs each
# target on J worker processes at once (libFuzzer's fork mode; -runs counts
# all workers' executions together).
ifdef FUZZ_RUNS
FUZZ_SECONDS ?= 0
endif
FUZZ_SECONDS ?= 600
fuzz-long: fuzz
	tools/fuzz-long.sh $(if $(FUZZ_RUNS),--runs $(FUZZ_RUNS)) $(if $(FUZZ_FORK),--fork $(FUZZ_FORK)) build/fuzz $(FUZZ_SECONDS) build/fuzz/fuzz-long.log

# The whole suite twice: the developer build, then ASan+UBSan.  ctest's
# summary closes the output.
check: build asan
	ctest --preset dev -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --preset asan -j $(JOBS)

check-dev: build
	ctest --preset dev -j $(JOBS)

check-asan: asan
	ctest --preset asan -j $(JOBS)

# What make check's debug builds cannot show: the release binary's hardening
# (PIE, full RELRO, stack protector, _FORTIFY_SOURCE).
check-hardening: release
	ctest --test-dir build/release -R '^hardening(_module_.*)?$$' --output-on-failure

# gcc -fanalyzer over src/ and tools/, compiled afresh (about 1-2 minutes on
# two cores); fails on a finding not listed in tools/analyze.known.
analyze: deps
	JOBS=$(JOBS) tools/analyze.sh build/analyze

# The release binary, its manual pages and bash completion under PREFIX
# (bin/, share/man/man1/, share/bash-completion/completions/); DESTDIR
# stages them elsewhere (make install PREFIX=/usr DESTDIR=/tmp/stage).
# Run as root (sudo make install) after a `make release` of your own, it
# only copies, so that nothing in build/ becomes root's.
PREFIX ?= /usr/local
install:
	@if [ "$$(id -u)" -ne 0 ] || [ ! -x build/release/sworn ]; then $(MAKE) --no-print-directory release; fi
	DESTDIR="$(DESTDIR)" cmake --install build/release --prefix "$(PREFIX)"

# A Debian package of the same files under /usr, its Depends read from the
# libraries the binary links: build/release/sworn_VERSION_ARCH.deb.
package: release
	cd build/release && cpack -G DEB

demo: build
	scripts/demo build/dev/sworn

# sworn draft without a GPU: the scripted stand-in (NOT a language model;
# scripts/stand-in says what it is) on 127.0.0.1:8081, running on its own
# until make stand-in-stop.
stand-in: build
	scripts/stand-in start

stand-in-stop:
	scripts/stand-in stop

bench: release
	bench/ingest

clean:
	rm -rf build compile_commands.json
