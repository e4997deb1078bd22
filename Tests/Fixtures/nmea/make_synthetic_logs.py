#!/usr/bin/env python3
"""Writes the synthetic NMEA logs used by the gpsd integration tests (fixed seed, so the output
is the same on every run):

  stationary-jitter.log  30 s at rest near -33.8694, 151.1990 with ~1 m of drifting position noise
  course-reversal.log    12 s due north at 25 m/s, then 12 s due south at 25 m/s, same meridian

Each epoch is RMC + GGA + GSA (a 3D fix, HDOP 0.6) with valid checksums, 1 Hz.
Run from this folder:  python3 make_synthetic_logs.py
"""
import math
import random

START = (2025, 6, 1, 2, 0, 0)  # 2025-06-01T02:00:00Z
LAT0, LON0 = -33.8694, 151.1990
M_PER_DEG_LAT = 110_946.0  # near 33.87 S (only used to place the synthetic points)


def checksum(body):
    c = 0
    for ch in body.encode("ascii"):
        c ^= ch
    return "%02X" % c


def sentence(body):
    return "$%s*%s" % (body, checksum(body))


def nmea_angle(value, degree_digits, positive, negative):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    text = "%0*d%08.5f" % (degree_digits, degrees, minutes)
    return text, hemisphere


def epoch(second, lat, lon, speed_mps, course):
    y, mo, d, h, mi, s = START
    total = h * 3600 + mi * 60 + s + second
    hh, mm, ss = total // 3600, (total // 60) % 60, total % 60
    t = "%02d%02d%02d.00" % (hh, mm, ss)
    date = "%02d%02d%02d" % (d, mo, y % 100)
    la, ns = nmea_angle(lat, 2, "N", "S")
    lo, ew = nmea_angle(lon, 3, "E", "W")
    knots = speed_mps / 0.514444
    return [
        sentence("GPRMC,%s,A,%s,%s,%s,%s,%.3f,%.2f,%s,,,A" % (t, la, ns, lo, ew, knots, course, date)),
        sentence("GPGGA,%s,%s,%s,%s,%s,1,09,0.6,35.0,M,22.3,M,," % (t, la, ns, lo, ew)),
        sentence("GPGSA,A,3,02,05,06,07,10,12,18,21,24,,,,1.1,0.6,0.9"),
    ]


def header(name, description):
    return [
        "# Name: %s" % name,
        "# Description: %s" % description,
        "# Written by make_synthetic_logs.py for Lodestone's tests (synthetic, no receiver).",
        "#",
    ]


def stationary_jitter():
    rng = random.Random(20250601)
    lines = header("stationary-jitter", "30 s at rest, ~1 m of drifting position noise")
    north = east = 0.0
    for second in range(30):
        north = 0.8 * north + rng.gauss(0, 0.45)
        east = 0.8 * east + rng.gauss(0, 0.45)
        lat = LAT0 + north / M_PER_DEG_LAT
        lon = LON0 + east / (M_PER_DEG_LAT * math.cos(math.radians(LAT0)))
        lines += epoch(second, lat, lon, abs(rng.gauss(0, 0.05)), 0.0)
    return lines


def course_reversal():
    lines = header("course-reversal", "12 s north at 25 m/s, then 12 s south at 25 m/s")
    north = 0.0
    for second in range(25):
        if second <= 12:
            north = 25.0 * second
            course, speed = 0.0, 25.0
        else:
            north = 25.0 * (24 - second)
            course, speed = 180.0, 25.0
        lat = LAT0 + north / M_PER_DEG_LAT
        lines += epoch(second, lat, LON0, speed, course)
    return lines


if __name__ == "__main__":
    for name, lines in (("stationary-jitter.log", stationary_jitter()),
                        ("course-reversal.log", course_reversal())):
        with open(name, "w") as f:
            f.write("\n".join(lines) + "\n")
