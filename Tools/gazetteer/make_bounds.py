#!/usr/bin/env python3
"""Derives the k-d tree's cell bounds (Sources/CGazetteer/gazetteer_bounds.bin) from gazetteer.bin.

Run it after make_gazetteer.py, on the file that script wrote:
  python3 make_bounds.py ../../Sources/CGazetteer/gazetteer.bin ../../Sources/CGazetteer/gazetteer_bounds.bin

Why: the tree's cells, as its splits alone define them, are boxes far larger than the places in
them (the places lie on the unit sphere, the boxes reach into it). A point far from every place (on
the ocean, near a pole) then sees many cells that may hold a place and holds none near. The box of
the places themselves, for the cells of the tree's top levels, lets `places near` pass over them.
Each cell also carries its own place's position (the record at the middle of its range): the top
cells' records lie far apart in gazetteer.bin, one page each, and a query would otherwise bring
many of those pages into memory for a few bytes apiece.

Layout (little-endian), read by Sources/Places/SpatialSearch.swift:
  header  "LGB2", u32 count (the gazetteer's, which the bounds must match), u32 depth D
  boxes   2^D - 1 cells in heap order (the root first; the children of cell i are 2i+1 and 2i+2;
          the cell of the range [lo, hi) at depth d has children [lo, mid) and [mid + 1, hi) with
          mid = (lo + hi) / 2, as in gazetteer.bin), 32 bytes each: six f32 min x, min y, min z,
          max x, max y, max z of the unit vectors of every place in the range, widened by 1e-6 so
          that f32 rounding and the reader's own sine and cosine stay inside, then i32 latitude and
          i32 longitude (1e-5 degrees) of the cell's place, record mid. An empty range has min 2,
          max -2 and position 0, 0.
"""
import math, struct, sys

DEPTH = 12
MARGIN = 1e-6


def unit_vectors(data):
    if data[:4] != b"LGZ2":
        sys.exit("not a gazetteer (LGZ2) file")
    count, records = struct.unpack_from("<II", data, 4)
    vectors, positions = [], []
    for i in range(count):
        lat, lon, _ = struct.unpack_from("<iiI", data, records + 12 * i)
        positions.append((lat, lon))
        la, lo = math.radians(lat / 1e5), math.radians(lon / 1e5)
        vectors.append((math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la)))
    return vectors, positions


def main(in_path, out_path):
    with open(in_path, "rb") as f:
        vectors, positions = unit_vectors(f.read())
    cells = [None] * (2 ** DEPTH - 1)

    def bounds(lo, hi, depth, cell):
        """The box of the places in [lo, hi), stored for the cells above DEPTH."""
        if lo >= hi:
            box = ([2.0] * 3, [-2.0] * 3)
        elif depth >= DEPTH:
            part = vectors[lo:hi]
            box = ([min(v[a] for v in part) for a in range(3)], [max(v[a] for v in part) for a in range(3)])
        else:
            mid = (lo + hi) // 2
            left = bounds(lo, mid, depth + 1, 2 * cell + 1)
            right = bounds(mid + 1, hi, depth + 1, 2 * cell + 2)
            v = vectors[mid]
            box = ([min(left[0][a], right[0][a], v[a]) for a in range(3)],
                   [max(left[1][a], right[1][a], v[a]) for a in range(3)])
        if depth < DEPTH:
            cells[cell] = (box, positions[(lo + hi) // 2] if lo < hi else (0, 0))
        return box

    bounds(0, len(vectors), 0, 0)
    out = bytearray(b"LGB2" + struct.pack("<II", len(vectors), DEPTH))
    for (low, high), position in cells:
        if low[0] > high[0]:
            out += struct.pack("<6f", *low, *high)
        else:
            out += struct.pack("<6f", *(x - MARGIN for x in low), *(x + MARGIN for x in high))
        out += struct.pack("<ii", *position)
    with open(out_path, "wb") as f:
        f.write(out)
    print(f"{len(vectors)} places, {len(cells)} cells to depth {DEPTH}, {len(out)} bytes", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_bounds.py gazetteer.bin gazetteer_bounds.bin")
    main(*sys.argv[1:3])
