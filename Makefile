# Lodestone — a compass and heading toolkit.
#   make run      install what is missing, build release, start the compass on the simulator
#   make test     install what the tests need (incl. gpsd for the integration tests), run them
#   make bench    release benchmarks: one JSON object per line, then a table
#   make build    release binary, man page and shell completions (as yourself, never as root)
#   make install  install what `make build` made under $(PREFIX) (default /usr/local); never builds
#   make deb      a Debian package for this machine's architecture (packaging/build-deb.sh)
#   make check-deb  after make deb, as root on Debian 12: install, check, remove and purge it
#   make fuzz     build the libFuzzer targets in Fuzz/ and run each for $(FUZZ_SECONDS) s; fails on a finding

PREFIX    ?= /usr/local
SWIFT     ?= swift
RELEASE   := -c release --static-swift-stdlib
BUILD_DEBS := libi2c-dev libgps-dev libmosquitto-dev
TEST_DEBS  := $(BUILD_DEBS) gpsd gpsd-tools gpsd-clients tmux mosquitto mosquitto-clients python3-jsonschema \
              groff-base zsh fish openssl socat
BENCH_DEBS := $(BUILD_DEBS) libproj-dev gcc g++ mosquitto openssl
# The reference filters' sources (PyPI sdists of vqf and imufusion), fetched by `make bench-deps` and
# compiled by `make bench` into our harnesses (Benchmarks/reference); never copied into the repository.
REFERENCE_SRC ?= .build/bench-deps
REFERENCE_BIN := .build/bench/reference
# BROAD trials (real IMU with optical truth) for the attitude accuracy figures; skipped when absent.
BROAD_DIR ?= ../shared/data/broad

# Build facts for `lodestone --version` (Package.swift reads them from the environment; changing them
# recompiles one C file). The date honours SOURCE_DATE_EPOCH, for reproducible packages.
BUILD_COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && \
                  { git diff --quiet HEAD -- 2>/dev/null || c="$$c-dirty"; } && echo "$$c" || echo unknown)
BUILD_DATE   := $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%d)
BUILD_ENV    := LODESTONE_BUILD_COMMIT=$(BUILD_COMMIT) LODESTONE_BUILD_DATE=$(BUILD_DATE)
# What `make build` makes besides the binary, for `make install` and `make deb`.
DIST      := .build/dist
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
UNITDIR   ?= $(PREFIX)/lib/systemd/system
UNITS     := hardware/systemd/lodestone-serve.service hardware/systemd/lodestone-log.service
# Tools `make deb` and `make check-deb` use.
DEB_DEBS  := dpkg-dev lintian

# Fuzzing: every target in Fuzz/ (a separate package) from its seeds in Fuzz/Corpus/TARGET, new inputs
# kept in .build/fuzz/corpus, a finding saved in .build/fuzz/findings (rerun one: the binary with its path).
# The mutations come from a fixed seed (FUZZ_SEED=0 asks libFuzzer for a fresh one), so a run that
# finds something finds it again.
FUZZ_SECONDS ?= 30
FUZZ_SEED    ?= 1
FUZZ_TARGETS := recording log-reader profile gpsd nmea
FUZZ_FLAGS   := -max_len=4096 -rss_limit_mb=2048 -timeout=10 -detect_leaks=0 -seed=$(FUZZ_SEED)

.PHONY: run test bench build install deps test-deps bench-deps clean deb check-deb deb-deps fuzz soak

# Installs the Debian packages named in $(1) that are missing: apt-get as root, sudo otherwise.
define ensure_debs
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "lodestone: installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call ensure_debs,$(BUILD_DEBS))

test-deps:
	$(call ensure_debs,$(TEST_DEBS))

bench-deps:
	$(call ensure_debs,$(BENCH_DEBS))
	@python3 Benchmarks/reference/fetch_references.py $(REFERENCE_SRC) \
	  || echo "lodestone: a reference source is missing; make bench reports it and runs the rest"
	@python3 -c "import vqf, imufusion, numpy" 2>/dev/null || python3 -m pip install --quiet vqf imufusion numpy \
	  || echo "lodestone: could not pip install vqf imufusion numpy; the VQF/Fusion reference figures will be missing"

build: deps
	$(BUILD_ENV) $(SWIFT) build $(RELEASE) --product lodestone
	@rm -rf $(DIST) && mkdir -p $(DIST)
	.build/release/lodestone help --man > $(DIST)/lodestone.1
	.build/release/lodestone completion bash > $(DIST)/lodestone.bash
	.build/release/lodestone completion zsh > $(DIST)/_lodestone
	.build/release/lodestone completion fish > $(DIST)/lodestone.fish
	@.build/release/lodestone --version

run: build
	.build/release/lodestone watch --simulate

test: test-deps
	$(SWIFT) build --product lodestone
	$(SWIFT) test --disable-xctest

bench: bench-deps
	$(BUILD_ENV) $(SWIFT) build $(RELEASE) --product lodestone-bench
	$(BUILD_ENV) $(SWIFT) build $(RELEASE) --product lodestone
	@mkdir -p .build/bench $(REFERENCE_BIN)
	@cc -O2 -o .build/bench/geod_inverse_bench Benchmarks/c/geod_inverse_bench.c -lproj -lm
	@cc -O2 -o .build/bench/live_floor Benchmarks/c/live_floor.c
	@rm -f $(REFERENCE_BIN)/vqf_harness $(REFERENCE_BIN)/fusion_harness
	@if [ -f $(REFERENCE_SRC)/vqf/vqf/cpp/vqf.cpp ]; then \
	  c++ -O2 -I $(REFERENCE_SRC)/vqf/vqf/cpp -o $(REFERENCE_BIN)/vqf_harness \
	    Benchmarks/reference/vqf_harness.cpp $(REFERENCE_SRC)/vqf/vqf/cpp/vqf.cpp; \
	else echo "reference missing: VQF (no $(REFERENCE_SRC)/vqf; run make bench-deps)"; fi
	@if [ -f $(REFERENCE_SRC)/imufusion/Fusion/FusionAhrs.c ]; then \
	  cc -O2 -DFUSION_USE_NORMAL_SQRT -I $(REFERENCE_SRC)/imufusion/Fusion -o $(REFERENCE_BIN)/fusion_harness \
	    Benchmarks/reference/fusion_harness.c $(REFERENCE_SRC)/imufusion/Fusion/*.c -lm; \
	else echo "reference missing: x-io Fusion (no $(REFERENCE_SRC)/imufusion; run make bench-deps)"; fi
	@rm -rf .build/bench/broad .build/bench/attitude_reference.jsonl; mkdir -p .build/bench/broad
	@if ls $(BROAD_DIR)/broad_*_raw.csv.gz >/dev/null 2>&1; then \
	  for f in $(BROAD_DIR)/broad_*.csv.gz; do gzip -dc "$$f" > .build/bench/broad/$$(basename "$$f" .gz); done; \
	else echo "attitude: no BROAD trials in $(BROAD_DIR); the real-data attitude figures are skipped"; fi
	@.build/release/lodestone-bench --export-scenarios .build/bench/broad
	@python3 Benchmarks/attitude/reference_filters.py .build/bench/broad > .build/bench/attitude_reference.jsonl \
	  || echo "attitude: reference filters (VQF, Fusion) failed; see make bench-deps"
	@cat .build/bench/attitude_reference.jsonl 2>/dev/null
	@ref=$$(.build/bench/geod_inverse_bench); echo "$$ref"; \
	  LODESTONE_PROJ_C_NS=$$(printf '%s' "$$ref" | sed -nE 's/.*"ns_per_op": ([0-9.]+).*/\1/p') \
	  LODESTONE_BROAD_DIR=.build/bench/broad LODESTONE_ATTITUDE_REFERENCE=.build/bench/attitude_reference.jsonl \
	  LODESTONE_REFERENCE_BIN=$(REFERENCE_BIN) LODESTONE_BINARY=.build/release/lodestone \
	  .build/release/lodestone-bench
	@$(BUILD_ENV) $(SWIFT) build $(RELEASE) --product lodestone >/dev/null && \
	  python3 Benchmarks/places/watch_rss.py .build/release/lodestone 20 || echo "watch.rss: could not run the dashboard"
	@python3 Benchmarks/places/binary_size.py .build/release/lodestone || echo "binary.size: could not measure the binary"

# serve under hostile consumers for 10 minutes (RSS sampled each minute): the soak of `make bench`'s serve.hostile.
soak:
	$(BUILD_ENV) $(SWIFT) build $(RELEASE) --product lodestone-bench
	$(BUILD_ENV) $(SWIFT) build $(RELEASE) --product lodestone
	LODESTONE_SOAK_SECONDS=600 .build/release/lodestone-bench serve.hostile

# Installs what `make build` made and never builds: under sudo the toolchain is usually not on PATH,
# and a build as root would leave root-owned files in .build.
install:
	@for f in .build/release/lodestone $(DIST)/lodestone.1 $(DIST)/lodestone.bash $(DIST)/_lodestone $(DIST)/lodestone.fish; do \
	  if [ ! -f "$$f" ]; then echo "lodestone: $$f is not built: run 'make build' first (as yourself), then 'sudo make install'" >&2; exit 1; fi; \
	done
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(UNITDIR) \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 .build/release/lodestone $(DESTDIR)$(BINDIR)/lodestone
	install -m 644 $(DIST)/lodestone.1 $(DESTDIR)$(MANDIR)/man1/lodestone.1
	install -m 644 $(DIST)/lodestone.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/lodestone
	install -m 644 $(DIST)/_lodestone $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_lodestone
	install -m 644 $(DIST)/lodestone.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/lodestone.fish
	@for u in $(UNITS); do \
	  sed 's|/usr/local/bin/lodestone|$(BINDIR)/lodestone|g' "$$u" > $(DESTDIR)$(UNITDIR)/$$(basename "$$u") && \
	  chmod 644 $(DESTDIR)$(UNITDIR)/$$(basename "$$u") && echo "installed $(DESTDIR)$(UNITDIR)/$$(basename "$$u")"; \
	done
	@echo "lodestone: installed $$($(DESTDIR)$(BINDIR)/lodestone --version 2>/dev/null || echo "in $(DESTDIR)$(BINDIR)")"
	@echo "For the services: a 'lodestone' user in the i2c group, then 'systemctl daemon-reload' (see hardware/systemd/README.md)"

deb-deps:
	$(call ensure_debs,$(DEB_DEBS))

# A Debian package of the static-stdlib release build: installing it needs no toolchain.
deb: build deb-deps
	packaging/build-deb.sh .build/release/lodestone $(DIST) .build/deb

# The package's check, as root on Debian 12 (CI runs `make deb check-deb` after `make test`): installs,
# checks, removes and purges what `make deb` made; like install, it never builds.
check-deb:
	@ls .build/deb/lodestone_*.deb >/dev/null 2>&1 || { echo "lodestone: no package in .build/deb: run 'make deb' first" >&2; exit 1; }
	packaging/check-deb.sh .build/deb/lodestone_*.deb

fuzz: deps
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address
	@mkdir -p .build/fuzz/findings; status=0; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p .build/fuzz/corpus/$$t; \
	  if SWIFT_BACKTRACE=enable=no Fuzz/.build/release/fuzz-$$t $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	       -artifact_prefix=.build/fuzz/findings/$$t- .build/fuzz/corpus/$$t Fuzz/Corpus/$$t > .build/fuzz/$$t.log 2>&1; then \
	    echo "fuzz: $$t: $$(grep -E '^Done [0-9]+ runs' .build/fuzz/$$t.log | tail -n 1), no finding"; \
	  else \
	    status=1; echo "fuzz: $$t: FINDING (log .build/fuzz/$$t.log)"; \
	    grep -E "Fatal error|ERROR: |SUMMARY|Test unit written|fuzz check" .build/fuzz/$$t.log | head -n 20; \
	  fi; \
	done; exit $$status

clean:
	rm -rf .build
