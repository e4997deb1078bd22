// VQF (Laidig & Seel 2023) from the PyPI source distribution `vqf`, its C++ core (vqf/cpp/vqf.cpp),
// driven one sample at a time on a trial: see trial.h for the commands and output.
//
// Built by `make bench` as: c++ -O2 -I VQF_SOURCE/vqf/cpp vqf_harness.cpp VQF_SOURCE/vqf/cpp/vqf.cpp
// VQF's defaults (9D, rest and motion bias estimation, magnetic disturbance rejection). VQF takes
// any right-handed body frame and an earth frame with z up; the trial's FRD specific force (0, 0, −1) g
// at rest is +1 g along "up", so samples are fed as they are (gyro in rad/s, acceleration in m/s²).
// Its 9D earth frame has y along the horizontal field: the heading clockwise from magnetic north is
// 90° minus the counter-clockwise angle of body x from the earth x axis.
#include "trial.h"
#include "vqf.hpp"

#include <vector>

static const double degreesToRadians = M_PI / 180.0;
static const double standardGravity = 9.81;

struct Inputs { vqf_real_t gyr[3], acc[3], mag[3]; };

static Inputs inputs(const TrialRow &r) {
    Inputs in;
    for (int k = 0; k < 3; k++) {
        in.gyr[k] = r.gyr[k] * degreesToRadians;
        in.acc[k] = r.acc[k] * standardGravity;
        in.mag[k] = r.mag[k];
    }
    return in;
}

static double heading(const VQF &filter) {
    vqf_real_t q[4];
    filter.getQuat9D(q);
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double ccw = trial_heading(1 - 2 * (y * y + z * z), 2 * (x * y + w * z));
    return fmod(450.0 - ccw, 360.0);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s TRIAL.csv time ROWS UPDATES ROUNDS | headings\n", argv[0]);
        return 64;
    }
    Trial trial;
    if (trial_read(argv[1], &trial) != 0) return 65;
    std::vector<Inputs> samples;
    for (size_t i = 0; i < trial.count; i++) samples.push_back(inputs(trial.rows[i]));
    if (strcmp(argv[2], "headings") == 0) {
        VQF filter(trial.period);
        for (const Inputs &s : samples) {
            filter.update(s.gyr, s.acc, s.mag);
            printf("%.6f\n", heading(filter));
        }
        return 0;
    }
    if (strcmp(argv[2], "time") != 0 || argc < 6) { fprintf(stderr, "%s: unknown command\n", argv[0]); return 64; }
    size_t rows = (size_t) atol(argv[3]), updates = (size_t) atol(argv[4]);
    int rounds = atoi(argv[5]);
    if (rows == 0 || rows > samples.size()) rows = samples.size();
    double best = INFINITY, bestWithHeading = INFINITY;
    for (int round = 0; round < rounds; round++) {
        {
            VQF filter(trial.period);
            double t0 = trial_thread_ns();
            for (size_t i = 0; i < updates; i++) {
                const Inputs &s = samples[i % rows];
                filter.update(s.gyr, s.acc, s.mag);
            }
            vqf_real_t q[4];
            filter.getQuat9D(q);
            trial_sink = q[0];
            best = fmin(best, (trial_thread_ns() - t0) / (double) updates);
        }
        {
            VQF filter(trial.period);
            double sum = 0;
            double t0 = trial_thread_ns();
            for (size_t i = 0; i < updates; i++) {
                const Inputs &s = samples[i % rows];
                filter.update(s.gyr, s.acc, s.mag);
                sum += heading(filter);
            }
            trial_sink = sum;
            bestWithHeading = fmin(bestWithHeading, (trial_thread_ns() - t0) / (double) updates);
        }
    }
    printf("{\"filter\": \"vqf\", \"ns_per_update\": %.2f, \"ns_per_update_heading\": %.2f, \"rows\": %zu, \"updates\": %zu, \"rounds\": %d}\n",
           best, bestWithHeading, rows, updates, rounds);
    return 0;
}
