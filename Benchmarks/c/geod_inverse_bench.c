/*
 * Side-by-side reference for the "geodesic.inverse" benchmark: times PROJ's C geod_inverse
 * (Debian libproj-dev, <geodesic.h>) on the same random global pairs as
 * Benchmarks/LodestoneBench/GeodesyBench.swift (same SplitMix64 generator and seed, same
 * 4096 pairs cycled, warm-up then best of 5 runs of 400 000 calls).
 *
 * Build and run:
 *   cc -O2 -o /tmp/geod_inverse_bench Benchmarks/c/geod_inverse_bench.c -lproj -lm
 *   /tmp/geod_inverse_bench
 * Prints one JSON line: {"benchmark": "geodesic.inverse.proj_c", "ns_per_op": X}
 */
#include <geodesic.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define PAIRS 4096
#define ITERATIONS 400000
#define REPEATS 5

static uint64_t state = 20250101u;

static uint64_t splitmix64(void) {
    uint64_t z;
    state += 0x9E3779B97F4A7C15ull;
    z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unit(void) { return (double)(splitmix64() >> 11) * 0x1p-53; }

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double lat[2 * PAIRS], lon[2 * PAIRS];
static volatile double sink;

static void run(const struct geod_geodesic* g, int n) {
    double total = 0;
    for (int i = 0; i < n; ++i) {
        int k = 2 * (i & (PAIRS - 1));
        double s12, azi1, azi2;
        geod_inverse(g, lat[k], lon[k], lat[k + 1], lon[k + 1], &s12, &azi1, &azi2);
        total += s12 + azi1 + azi2;
    }
    sink = total;
}

int main(void) {
    struct geod_geodesic g;
    geod_init(&g, 6378137, 1 / 298.257223563);
    for (int i = 0; i < 2 * PAIRS; ++i) {
        lat[i] = asin(2 * unit() - 1) * 180 / M_PI;
        lon[i] = 360 * unit() - 180;
    }
    run(&g, ITERATIONS / 10);
    double best = INFINITY;
    for (int r = 0; r < REPEATS; ++r) {
        uint64_t t0 = now_ns();
        run(&g, ITERATIONS);
        uint64_t t1 = now_ns();
        double ns = (double)(t1 - t0) / ITERATIONS;
        if (ns < best) best = ns;
    }
    printf("{\"benchmark\": \"geodesic.inverse.proj_c\", \"ns_per_op\": %.2f}\n", best);
    return 0;
}
