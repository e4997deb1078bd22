#!/usr/bin/env python3
"""Writes the BROAD excerpts in this folder from the full development trials.

Usage: make_excerpts.py SOURCE_DIR   (SOURCE_DIR holds broad_NN_*_raw.csv.gz and *_truth.csv.gz)

Each excerpt starts 12 s before the trial's first movement phase (so a filter can learn the gyro
bias at rest) and lasts 45 s, decimated by 4 (95.238 Hz -> 23.8 Hz) so that integrating it stays
exact: each output row stands for 4 input rows and is stamped with the last one's time;
- its rate is the constant rate that reproduces the rotation of the 4 gyro samples composed
  (averaging the rates instead would lose up to tens of degrees in fast rotations);
- its field and specific force are the means of the 4 samples, each first rotated into the body
  frame at the end of the block (where a filter uses them, after integrating the rate);
- its truth (heading, pitch, movement) is that of the last row.
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


def qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw])


def qexp(r):
    angle = np.linalg.norm(r)
    if angle < 1e-12:
        return np.array([1.0, *(r / 2)])
    return np.array([np.cos(angle / 2), *(np.sin(angle / 2) * r / angle)])


def qlog(q):
    q = q / np.linalg.norm(q)
    if q[0] < 0:
        q = -q
    s = np.linalg.norm(q[1:])
    if s < 1e-12:
        return 2 * q[1:]
    return 2 * np.arctan2(s, q[0]) * q[1:] / s


def rotate(q, v):
    u = q[1:]
    t = 2 * np.cross(u, v)
    return v + q[0] * t + np.cross(u, t)


def conjugate(q):
    return np.array([q[0], -q[1], -q[2], -q[3]])


def decimate(block, dt):
    """One row from DECIMATION consecutive raw rows (t,x,y,z,ax,ay,az,gx,gy,gz)."""
    q = np.array([1.0, 0, 0, 0])
    frames = []
    for row in block:
        q = qmul(q, qexp(np.radians(row[7:10]) * dt))
        frames.append(q)
    end = frames[-1]
    to_end = [qmul(conjugate(end), f) for f in frames]
    mag = np.mean([rotate(f, row[1:4]) for f, row in zip(to_end, block)], axis=0)
    acc = np.mean([rotate(f, row[4:7]) for f, row in zip(to_end, block)], axis=0)
    rate = np.degrees(qlog(end)) / (len(block) * dt)
    return [block[-1, 0], *mag, *acc, *rate]


def main():
    source = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    for raw_path in sorted(glob.glob(os.path.join(source, "broad_*_raw.csv.gz"))):
        with gzip.open(raw_path, "rt") as f:
            raw = np.loadtxt(f, delimiter=",", skiprows=1)
        with gzip.open(raw_path.replace("_raw.csv.gz", "_truth.csv.gz"), "rt") as f:
            truth = np.loadtxt(f, delimiter=",", skiprows=1)
        dt = float(np.median(np.diff(raw[:, 0])))
        moving = np.flatnonzero(truth[:, 8] == 1)
        start_time = truth[moving[0], 0] - LEAD_SECONDS
        rows = np.flatnonzero((raw[:, 0] >= start_time) & (raw[:, 0] < start_time + LENGTH_SECONDS))
        rows = rows[: len(rows) // DECIMATION * DECIMATION]
        name = os.path.basename(raw_path).replace("_raw.csv.gz", "_excerpt.csv")
        with open(os.path.join(here, name), "w") as f:
            f.write("t,x,y,z,ax,ay,az,gx,gy,gz,heading_deg,pitch_deg,movement\n")
            for first in range(0, len(rows), DECIMATION):
                block = rows[first:first + DECIMATION]
                r = decimate(raw[block], dt)
                t = truth[block[-1]]
                movement = int(t[8]) if np.isfinite(t[8]) else 0
                f.write("%.4f,%.2f,%.2f,%.2f,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.2f,%.2f,%d\n"
                        % (*r, t[1], t[3], movement))
        print(name, len(rows) // DECIMATION)


if __name__ == "__main__":
    main()
