#!/usr/bin/env python3
"""Heading accuracy of the reference filters VQF and x-io Fusion on BROAD trials, for `make bench`.

Usage: reference_filters.py DIR   (DIR holds broad_NN_*_raw.csv and broad_NN_*_truth.csv, decompressed,
and the simulated vehicles sim_NAME_raw.csv and sim_NAME_truth.csv that `lodestone-bench
--export-scenarios DIR` writes)

Prints one JSON object per trial and filter:
  {"benchmark": "attitude.reference.vqf.01", "rmse_deg": ..., "p95_deg": ..., "rows": ...}
The metric is the one in the data README: circular heading error over rows with movement = 1 and
|pitch| <= 60 degrees. Needs `pip install vqf imufusion numpy` (make bench-deps).
"""
import glob
import json
import os
import sys

import numpy as np


def heading_metric(estimated_deg, truth):
    """RMS and 95th percentile of the circular heading error on the metric rows."""
    heading, pitch, movement = truth[:, 1], truth[:, 3], truth[:, 8]
    use = (movement == 1) & (np.abs(pitch) <= 60) & np.isfinite(heading) & np.isfinite(estimated_deg)
    err = (estimated_deg[use] - heading[use] + 180.0) % 360.0 - 180.0
    return float(np.sqrt(np.mean(err ** 2))), float(np.percentile(np.abs(err), 95)), int(use.sum())


def heading_from_quaternion(q):
    """Heading of body x projected on the horizontal plane, q = (w, x, y, z) body -> NED."""
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    r00 = 1 - 2 * (y * y + z * z)
    r10 = 2 * (x * y + w * z)
    return np.degrees(np.arctan2(r10, r00)) % 360.0


def run_vqf(raw):
    from vqf import VQF
    dt = float(np.median(np.diff(raw[:, 0])))
    # VQF takes any right-handed body frame; its earth frame has z up. FRD specific force at rest is (0, 0, -1) g, i.e. +1 g along "up": fed as is.
    gyr = np.ascontiguousarray(np.radians(raw[:, 7:10]))
    acc = np.ascontiguousarray(raw[:, 4:7] * 9.81)
    mag = np.ascontiguousarray(raw[:, 1:4])
    q = VQF(dt).updateBatch(gyr, acc, mag)["quat9D"]
    # VQF's 9D earth frame is east-north-up (y along the horizontal field): the counter-clockwise
    # angle of body x from east is 90 degrees minus the clockwise heading from magnetic north.
    return (90.0 - heading_from_quaternion(q)) % 360.0


def run_fusion(raw):
    import imufusion
    rate = 1.0 / float(np.median(np.diff(raw[:, 0])))
    settings = imufusion.AhrsSettings()
    settings.convention = imufusion.CONVENTION_NED
    settings.gain = 0.5
    settings.gyroscope_range = 2000
    settings.acceleration_rejection = 10
    settings.magnetic_rejection = 10
    settings.rejection_timeout = int(round(5 * rate))  # 5 s, in samples
    settings.sample_rate = rate
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(settings)
    bias_settings = imufusion.BiasSettings()
    bias_settings.sample_rate = rate
    bias = imufusion.Bias()
    bias.set_settings(bias_settings)
    out = np.zeros(len(raw))
    for i, row in enumerate(raw):
        gyro = bias.update(np.ascontiguousarray(row[7:10]))
        # NED convention: the accelerometer's FRD specific force is fed as is.
        ahrs.update(gyro, np.ascontiguousarray(row[4:7]), np.ascontiguousarray(row[1:4]))
        out[i] = heading_from_quaternion(np.asarray(ahrs.get_quaternion())[None, :])[0]
    return out


def main():
    folder = sys.argv[1]
    paths = glob.glob(os.path.join(folder, "broad_*_raw.csv")) + glob.glob(os.path.join(folder, "sim_*_raw.csv"))
    for raw_path in sorted(paths):
        trial = os.path.basename(raw_path).split("_")[1]
        raw = np.loadtxt(raw_path, delimiter=",", skiprows=1)
        truth = np.loadtxt(raw_path.replace("_raw.csv", "_truth.csv"), delimiter=",", skiprows=1)
        for name, runner in (("vqf", run_vqf), ("fusion", run_fusion)):
            try:
                rmse, p95, rows = heading_metric(runner(raw), truth)
                print(json.dumps({"benchmark": f"attitude.reference.{name}.{trial}",
                                  "rmse_deg": round(rmse, 2), "p95_deg": round(p95, 2), "rows": rows}))
            except ImportError as error:
                print(json.dumps({"benchmark": f"attitude.reference.{name}.{trial}", "skipped": str(error)}))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
