/*
 * The part of the reference harnesses that is ours and shared: reading a trial, timing, output.
 *
 * A trial is a CSV file with a header and the columns t,x,y,z,ax,ay,az,gx,gy,gz (s, µT, g, °/s; body
 * axes x forward, y right, z down), as the BROAD trials and `lodestone-bench --export-scenarios`
 * write them. Each harness (vqf_harness.cpp, fusion_harness.c) links the reference filter from the
 * source distribution `make bench-deps` downloaded, never from this repository, and runs:
 *
 *   HARNESS TRIAL.csv time ROWS UPDATES ROUNDS   one JSON line: CPU ns per update, without and with
 *                                                the heading read each sample (best of ROUNDS, each
 *                                                UPDATES updates cycling over the first ROWS rows)
 *   HARNESS TRIAL.csv headings                   one heading per row (degrees clockwise from
 *                                                magnetic north), for the accuracy figures
 */
#ifndef LODESTONE_REFERENCE_TRIAL_H
#define LODESTONE_REFERENCE_TRIAL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double t, mag[3], acc[3], gyr[3];
} TrialRow;

typedef struct {
    TrialRow *rows;
    size_t count;
    /* The median sample period (s). */
    double period;
} Trial;

static int trial_compare_doubles(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* Reads the trial; rows with fewer than ten numbers are skipped. Returns 0 on success. */
static int trial_read(const char *path, Trial *trial) {
    FILE *file = fopen(path, "r");
    if (!file) { fprintf(stderr, "%s: cannot open\n", path); return -1; }
    size_t capacity = 1 << 16;
    trial->rows = (TrialRow *) malloc(capacity * sizeof(TrialRow));
    trial->count = 0;
    char line[1024];
    int header = 1;
    while (fgets(line, sizeof line, file)) {
        if (header) { header = 0; continue; }
        double v[10];
        int n = 0;
        char *p = line;
        while (n < 10) {
            char *end;
            v[n] = strtod(p, &end);
            if (end == p) break;
            n += 1;
            p = end;
            if (*p != ',') break;
            p += 1;
        }
        if (n < 10) continue;
        if (trial->count == capacity) {
            capacity *= 2;
            trial->rows = (TrialRow *) realloc(trial->rows, capacity * sizeof(TrialRow));
        }
        TrialRow *r = &trial->rows[trial->count++];
        r->t = v[0];
        for (int k = 0; k < 3; k++) { r->mag[k] = v[1 + k]; r->acc[k] = v[4 + k]; r->gyr[k] = v[7 + k]; }
    }
    fclose(file);
    if (trial->count < 2) { fprintf(stderr, "%s: fewer than two rows\n", path); return -1; }
    double *dt = (double *) malloc((trial->count - 1) * sizeof(double));
    for (size_t i = 1; i < trial->count; i++) dt[i - 1] = trial->rows[i].t - trial->rows[i - 1].t;
    qsort(dt, trial->count - 1, sizeof(double), trial_compare_doubles);
    trial->period = dt[(trial->count - 1) / 2];
    free(dt);
    return 0;
}

/* CPU time of the calling thread (ns): unlike the wall clock, not inflated by other processes. */
static double trial_thread_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

/* Degrees clockwise from north of body x, from a body → earth rotation's first column, in [0, 360). */
static double trial_heading(double r00, double r10) {
    double h = atan2(r10, r00) * (180.0 / M_PI);
    return h < 0 ? h + 360 : h;
}

/* Keeps a value alive so the optimiser cannot drop the work that made it. */
static volatile double trial_sink;

#ifdef __cplusplus
}
#endif

#endif
