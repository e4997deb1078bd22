#!/usr/bin/env python3
"""Writes the BROAD excerpts in this folder from the full development trials.

Usage: make_excerpts.py SOURCE_DIR   (SOURCE_DIR holds broad_NN_*_raw.csv.gz and *_truth.csv.gz)

Each excerpt starts 12 s before the trial's first movement phase (so a filter can learn the gyro
bias at rest) and lasts 45 s. Rows are decimated by 4 (95.238 Hz -> 23.8 Hz): each output row is the
mean of 4 consecutive sensor rows (gyro as a mean rate, so integrating it stays exact to first order),
stamped with their mean time; truth columns come from the second of the 4 rows.
Columns: t,x,y,z,ax,ay,az,gx,gy,gz,heading_deg,pitch_deg,movement (units as in the source README).
"""
import glob
import gzip
import os
import sys

import numpy as np

DECIMATION = 4
LEAD_SECONDS = 12.0
LENGTH_SECONDS = 45.0


def main():
    source = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    for raw_path in sorted(glob.glob(os.path.join(source, "broad_*_raw.csv.gz"))):
        with gzip.open(raw_path, "rt") as f:
            raw = np.loadtxt(f, delimiter=",", skiprows=1)
        with gzip.open(raw_path.replace("_raw.csv.gz", "_truth.csv.gz"), "rt") as f:
            truth = np.loadtxt(f, delimiter=",", skiprows=1)
        moving = np.flatnonzero(truth[:, 8] == 1)
        start_time = truth[moving[0], 0] - LEAD_SECONDS
        rows = np.flatnonzero((raw[:, 0] >= start_time) & (raw[:, 0] < start_time + LENGTH_SECONDS))
        rows = rows[: len(rows) // DECIMATION * DECIMATION]
        blocks = raw[rows].reshape(-1, DECIMATION, raw.shape[1]).mean(axis=1)
        picked = truth[rows[1::DECIMATION]]
        out = np.column_stack([blocks, picked[:, 1], picked[:, 3], picked[:, 8]])
        name = os.path.basename(raw_path).replace("_raw.csv.gz", "_excerpt.csv")
        with open(os.path.join(here, name), "w") as f:
            f.write("t,x,y,z,ax,ay,az,gx,gy,gz,heading_deg,pitch_deg,movement\n")
            for r in out:
                f.write("%.4f,%.2f,%.2f,%.2f,%.4f,%.4f,%.4f,%.2f,%.2f,%.2f,%.2f,%.2f,%d\n" % (
                    *r[:12], 0 if not np.isfinite(r[12]) else int(r[12])))
        print(name, len(out))


if __name__ == "__main__":
    main()
