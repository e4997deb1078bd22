#!/usr/bin/env python3
"""Independent high-precision WMM2025 reference values (reference_values.csv).

Evaluates the model from WMM2025.COF in 40-digit arithmetic (mpmath): Schmidt semi-normalised
Legendre functions from the explicit polynomial sum, the potential V summed directly, and X', Y', Z' as
numerical derivatives of V (X' = dV/dtheta / r, Y' = -dV/dlambda / (r sin theta), Z' = dV/dr),
then rotated from geocentric to geodetic axes. No code is shared with the Swift module.
Rows at latitude +-90 are evaluated at +-(90 - 1e-20) degrees: the limit along the meridian
of the given longitude, which is what the model defines at the pole.

Usage: python3 Tests/Fixtures/wmm/make_reference_values.py > Tests/Fixtures/wmm/reference_values.csv
(a few seconds per point).
"""
import os
import mpmath as mp

mp.mp.dps = 40
HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = []
with open(os.path.join(HERE, "WMM2025.COF")) as f:
    for line in f.read().splitlines()[1:]:
        fields = line.split()
        if len(fields) != 6:
            break
        ROWS.append((int(fields[0]), int(fields[1])) + tuple(mp.mpf(x) for x in fields[2:]))

REF = mp.mpf("6371.2")
A = mp.mpf("6378.137")
FLAT = 1 / mp.mpf("298.257223563")
E2 = FLAT * (2 - FLAT)

POINTS = [  # year, height km, latitude, longitude
    ("2026.5", "12", "33", "-145"),
    ("2025.0", "65", "43", "93"),
    ("2025.0", "28", "89", "-121"),
    ("2025.25", "0", "0", "180"),
    ("2030.0", "850", "-45", "-180"),
    ("2025.0", "-1", "60", "359.5"),
    ("2029.9", "0", "-89.9", "45"),
    ("2027.0", "0", "-89.999", "0"),
    ("2027.0", "0", "-89.9999", "137"),
    ("2027.0", "2.8", "-89.99999", "-60"),
    ("2027.0", "2.8", "-90", "-60"),
    ("2027.0", "0", "-90", "0"),
    ("2028.0", "0", "89.9999", "10"),
    ("2028.0", "0", "89.99999", "-170"),
    ("2028.0", "0", "90", "-170"),
    ("2028.0", "0", "90", "33"),
]


def schmidt(n, m, x):
    """Schmidt semi-normalised P(n, m)(x) from the explicit Legendre polynomial sum
    P_n(x) = 2^-n sum_k (-1)^k C(n, k) C(2n - 2k, n) x^(n - 2k), differentiated m times."""
    derivative = 0
    for k in range(n // 2 + 1):
        power = n - 2 * k
        if power < m:
            continue
        coefficient = (-1) ** k * mp.binomial(n, k) * mp.binomial(2 * n - 2 * k, n)
        derivative += coefficient * mp.factorial(power) / mp.factorial(power - m) * x ** (power - m)
    p = (1 - x * x) ** (mp.mpf(m) / 2) * derivative / mp.mpf(2) ** n
    if m > 0:
        p *= mp.sqrt(2 * mp.factorial(n - m) / mp.factorial(n + m))
    return p


def potential(r, theta, lam, t):
    total = 0
    for n, m, g, h, gd, hd in ROWS:
        gt = g + (t - 2025) * gd
        ht = h + (t - 2025) * hd
        total += (REF / r) ** (n + 1) * (gt * mp.cos(m * lam) + ht * mp.sin(m * lam)) * schmidt(n, m, mp.cos(theta))
    return REF * total


def field(t, height, lat, lon):
    if abs(lat) == 90:
        lat = mp.sign(lat) * (90 - mp.mpf("1e-20"))
    phi = mp.radians(lat)
    lam = mp.radians(lon)
    rc = A / mp.sqrt(1 - E2 * mp.sin(phi) ** 2)
    p = (rc + height) * mp.cos(phi)
    z = (rc * (1 - E2) + height) * mp.sin(phi)
    r = mp.sqrt(p * p + z * z)
    phig = mp.atan2(z, p)
    theta = mp.pi / 2 - phig
    xp = mp.diff(lambda q: potential(r, q, lam, t), theta) / r
    yp = -mp.diff(lambda q: potential(r, theta, q, t), lam) / (r * mp.sin(theta))
    zp = mp.diff(lambda q: potential(q, theta, lam, t), r)
    psi = phig - phi
    return xp * mp.cos(psi) - zp * mp.sin(psi), yp, xp * mp.sin(psi) + zp * mp.cos(psi)


def main():
    print("date,height_km,lat,lon,X,Y,Z")
    for year, height, lat, lon in POINTS:
        x, y, z = field(mp.mpf(year), mp.mpf(height), mp.mpf(lat), mp.mpf(lon))
        print(",".join([year, height, lat, lon] + [mp.nstr(v, 18, min_fixed=-30, max_fixed=30) for v in (x, y, z)]), flush=True)


if __name__ == "__main__":
    main()
