#!/usr/bin/env python3
"""What the finer gazetteer costs the binary (goal: it grows by at most 12 MB).

The gazetteer before it (GeoNames places of 15,000 people or more, commit d835091) was 1,870,784
bytes. The growth is the gazetteer's bytes now (with its cells' bounds) less those, plus all of the code of the Places module
and of the time zones in Platform (an upper bound on their growth: that code existed in part
before). Sizes come from the symbol table (`nm -S`) of the release binary; the stripped size is that
of a copy stripped as the Debian package strips it. One JSON line:
  {"benchmark": "binary.size", "growth_mb": ..., "goal_growth_mb": 12, ...}
Usage: binary_size.py LODESTONE
"""
import json, os, shutil, subprocess, sys, tempfile

GAZETTEER_BEFORE = 1_870_784


def symbol_sizes(binary):
    out = subprocess.run(["nm", "-S", "--size-sort", binary], capture_output=True, text=True, check=True).stdout
    gazetteer = places = zones = 0
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        size, name = int(parts[1], 16), parts[3]
        if name in ("gazetteer", "gazetteer_bounds"):
            gazetteer += size
        elif name.startswith("$s6Places") or name.startswith("$s10CGazetteer"):
            places += size
        elif name.startswith("$s8Platform") and any(w in name for w in ("TimeZone", "LocalTime", "TZif")):
            zones += size
    return gazetteer, places, zones


def main():
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        print("usage: binary_size.py LODESTONE (a release build)", file=sys.stderr)
        return 64
    binary = sys.argv[1]
    gazetteer, places, zones = symbol_sizes(binary)
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "lodestone")
        shutil.copy(binary, copy)
        subprocess.run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", copy],
                       check=True)
        stripped = os.path.getsize(copy)
    growth = gazetteer - GAZETTEER_BEFORE + places + zones
    print(json.dumps({"benchmark": "binary.size", "bytes": os.path.getsize(binary), "stripped_bytes": stripped,
                      "gazetteer_bytes": gazetteer, "gazetteer_bytes_before": GAZETTEER_BEFORE,
                      "places_code_bytes": places, "time_zone_code_bytes": zones,
                      "growth_mb": round(growth / 1e6, 2), "goal_growth_mb": 12, "ok": growth <= 12e6}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
