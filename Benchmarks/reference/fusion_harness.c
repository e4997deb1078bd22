/*
 * x-io Fusion (Madgwick) from the PyPI source distribution `imufusion`, its C library (Fusion/),
 * driven one sample at a time on a trial: see trial.h for the commands and output.
 *
 * Built by `make bench` as: cc -O2 -DFUSION_USE_NORMAL_SQRT -I FUSION_SOURCE/Fusion fusion_harness.c
 * FUSION_SOURCE/Fusion/FusionAhrs.c FusionBias.c … -lm (the normal square root, as the Python package
 * builds it). The settings x-io recommends: NED convention (the trial's FRD samples are fed as they
 * are: °/s, g, µT), gain 0.5, gyroscope range 2000 °/s, acceleration and magnetic rejection 10°,
 * rejection timeout 5 s; the run-time gyroscope bias (FusionBias) before each update.
 */
#include "trial.h"
#include "Fusion.h"

typedef struct {
    FusionAhrs ahrs;
    FusionBias bias;
} Filter;

static void filter_start(Filter *f, double period) {
    const float rate = (float) (1.0 / period);
    FusionAhrsSettings settings = fusionAhrsDefaultSettings;
    settings.sampleRate = rate;
    settings.convention = FusionConventionNed;
    settings.gain = 0.5f;
    settings.gyroscopeRange = 2000.0f;
    settings.accelerationRejection = 10.0f;
    settings.magneticRejection = 10.0f;
    settings.rejectionTimeout = 5.0f;
    FusionAhrsInitialise(&f->ahrs);
    FusionAhrsSetSettings(&f->ahrs, &settings);
    FusionBiasSettings biasSettings = fusionBiasDefaultSettings;
    biasSettings.sampleRate = rate;
    FusionBiasInitialise(&f->bias);
    FusionBiasSetSettings(&f->bias, &biasSettings);
}

typedef struct { FusionVector gyr, acc, mag; } Inputs;

static inline void filter_update(Filter *f, const Inputs *s) {
    FusionVector gyroscope = FusionBiasUpdate(&f->bias, s->gyr);
    FusionAhrsUpdate(&f->ahrs, gyroscope, s->acc, s->mag);
}

static inline double filter_heading(const Filter *f) {
    FusionQuaternion q = FusionAhrsGetQuaternion(&f->ahrs);
    double w = q.element.w, x = q.element.x, y = q.element.y, z = q.element.z;
    return trial_heading(1 - 2 * (y * y + z * z), 2 * (x * y + w * z));
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s TRIAL.csv time ROWS UPDATES ROUNDS | headings\n", argv[0]);
        return 64;
    }
    Trial trial;
    if (trial_read(argv[1], &trial) != 0) return 65;
    Inputs *samples = (Inputs *) malloc(trial.count * sizeof(Inputs));
    for (size_t i = 0; i < trial.count; i++) {
        const TrialRow *r = &trial.rows[i];
        samples[i] = (Inputs) {
            .gyr = {.axis = {(float) r->gyr[0], (float) r->gyr[1], (float) r->gyr[2]}},
            .acc = {.axis = {(float) r->acc[0], (float) r->acc[1], (float) r->acc[2]}},
            .mag = {.axis = {(float) r->mag[0], (float) r->mag[1], (float) r->mag[2]}},
        };
    }
    Filter filter;
    if (strcmp(argv[2], "headings") == 0) {
        filter_start(&filter, trial.period);
        for (size_t i = 0; i < trial.count; i++) {
            filter_update(&filter, &samples[i]);
            printf("%.6f\n", filter_heading(&filter));
        }
        return 0;
    }
    if (strcmp(argv[2], "time") != 0 || argc < 6) { fprintf(stderr, "%s: unknown command\n", argv[0]); return 64; }
    size_t rows = (size_t) atol(argv[3]), updates = (size_t) atol(argv[4]);
    int rounds = atoi(argv[5]);
    if (rows == 0 || rows > trial.count) rows = trial.count;
    double best = INFINITY, bestWithHeading = INFINITY;
    for (int round = 0; round < rounds; round++) {
        filter_start(&filter, trial.period);
        double t0 = trial_thread_ns();
        for (size_t i = 0; i < updates; i++) filter_update(&filter, &samples[i % rows]);
        trial_sink = FusionAhrsGetQuaternion(&filter.ahrs).element.w;
        best = fmin(best, (trial_thread_ns() - t0) / (double) updates);

        filter_start(&filter, trial.period);
        double sum = 0;
        t0 = trial_thread_ns();
        for (size_t i = 0; i < updates; i++) {
            filter_update(&filter, &samples[i % rows]);
            sum += filter_heading(&filter);
        }
        trial_sink = sum;
        bestWithHeading = fmin(bestWithHeading, (trial_thread_ns() - t0) / (double) updates);
    }
    printf("{\"filter\": \"fusion\", \"ns_per_update\": %.2f, \"ns_per_update_heading\": %.2f, \"rows\": %zu, \"updates\": %zu, \"rounds\": %d}\n",
           best, bestWithHeading, rows, updates, rounds);
    return 0;
}
