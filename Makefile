# Lodestone — a compass and heading toolkit.
#   make run      install what is missing, build release, start the compass on the simulator
#   make test     install what the tests need (incl. gpsd for the integration tests), run them
#   make bench    release benchmarks: one JSON object per line, then a table
#   make install  copy the binary to $(PREFIX)/bin (default /usr/local)

PREFIX    ?= /usr/local
SWIFT     ?= swift
RELEASE   := -c release --static-swift-stdlib
BUILD_DEBS := libi2c-dev libgps-dev libmosquitto-dev
TEST_DEBS  := $(BUILD_DEBS) gpsd gpsd-tools gpsd-clients tmux mosquitto mosquitto-clients
BENCH_DEBS := $(BUILD_DEBS) libproj-dev gcc

.PHONY: run test bench build install deps test-deps bench-deps clean

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
	@ref=$$(.build/bench/geod_inverse_bench); echo "$$ref"; \
	  LODESTONE_PROJ_C_NS=$$(printf '%s' "$$ref" | sed -nE 's/.*"ns_per_op": ([0-9.]+).*/\1/p') \
	  .build/release/lodestone-bench

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build/release/lodestone $(DESTDIR)$(PREFIX)/bin/lodestone

clean:
	rm -rf .build
