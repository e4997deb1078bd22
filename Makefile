# Lodestone — a compass and heading toolkit.
#   make run      install what is missing, build release, start the compass on the simulator
#   make test     install what the tests need (incl. gpsd for the integration tests), run them
#   make bench    release benchmarks: one JSON object per line, then a table
#   make install  copy the binary to $(PREFIX)/bin (default /usr/local)
#   make fuzz     build the libFuzzer targets in Fuzz/ and run each for $(FUZZ_SECONDS) s; fails on a finding

PREFIX    ?= /usr/local
SWIFT     ?= swift
RELEASE   := -c release --static-swift-stdlib
BUILD_DEBS := libi2c-dev libgps-dev libmosquitto-dev
TEST_DEBS  := $(BUILD_DEBS) gpsd gpsd-tools gpsd-clients tmux mosquitto mosquitto-clients
BENCH_DEBS := $(BUILD_DEBS) libproj-dev gcc
# BROAD trials (real IMU with optical truth) for the attitude accuracy figures; skipped when absent.
BROAD_DIR ?= ../shared/data/broad

# Fuzzing: every target in Fuzz/ (a separate package) from its seeds in Fuzz/Corpus/TARGET, new inputs
# kept in .build/fuzz/corpus, a finding saved in .build/fuzz/findings (rerun one: the binary with its path).
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := recording log-reader profile gpsd nmea
FUZZ_FLAGS   := -max_len=4096 -rss_limit_mb=2048 -timeout=10 -detect_leaks=0

.PHONY: run test bench build install deps test-deps bench-deps clean fuzz

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
	@python3 -c "import vqf, imufusion, numpy" 2>/dev/null || python3 -m pip install --quiet vqf imufusion numpy \
	  || echo "lodestone: could not pip install vqf imufusion numpy; the VQF/Fusion reference figures will be missing"

build: deps
	$(SWIFT) build $(RELEASE) --product lodestone

run: build
	.build/release/lodestone watch --simulate

test: test-deps
	$(SWIFT) build --product lodestone
	$(SWIFT) test --disable-xctest

bench: bench-deps
	$(SWIFT) build $(RELEASE) --product lodestone-bench
	@mkdir -p .build/bench
	@cc -O2 -o .build/bench/geod_inverse_bench Benchmarks/c/geod_inverse_bench.c -lproj -lm
	@rm -rf .build/bench/broad .build/bench/attitude_reference.jsonl; mkdir -p .build/bench/broad
	@if ls $(BROAD_DIR)/broad_*_raw.csv.gz >/dev/null 2>&1; then \
	  for f in $(BROAD_DIR)/broad_*.csv.gz; do gzip -dc "$$f" > .build/bench/broad/$$(basename "$$f" .gz); done; \
	  python3 Benchmarks/attitude/reference_filters.py .build/bench/broad > .build/bench/attitude_reference.jsonl \
	    || echo "attitude: reference filters (VQF, Fusion) failed; see make bench-deps"; \
	  cat .build/bench/attitude_reference.jsonl 2>/dev/null; \
	else echo "attitude: no BROAD trials in $(BROAD_DIR); the attitude accuracy figures are skipped"; fi
	@ref=$$(.build/bench/geod_inverse_bench); echo "$$ref"; \
	  LODESTONE_PROJ_C_NS=$$(printf '%s' "$$ref" | sed -nE 's/.*"ns_per_op": ([0-9.]+).*/\1/p') \
	  LODESTONE_BROAD_DIR=.build/bench/broad LODESTONE_ATTITUDE_REFERENCE=.build/bench/attitude_reference.jsonl \
	  .build/release/lodestone-bench

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

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build/release/lodestone $(DESTDIR)$(PREFIX)/bin/lodestone

clean:
	rm -rf .build
