#!/usr/bin/env python3
"""Fetches the reference filters' source distributions from PyPI for `make bench` (`make bench-deps`).

Usage: fetch_references.py DIR

Downloads the pinned sdists of `vqf` (VQF, C++ core in vqf/cpp) and `imufusion` (x-io Fusion, C in
Fusion/), checks their SHA-256 against the digests below, and unpacks them into DIR/vqf and
DIR/imufusion. Nothing is built here and nothing is installed; `make bench` compiles
Benchmarks/reference/*_harness.* against these sources. The code stays in DIR (under .build), never
in the repository. A package already unpacked is kept. Exit 0 when both are there, 1 otherwise
(with a line saying which is missing and why); `make bench` then reports the reference as missing.

Why not `pip download --no-binary :all:`: pip prepares each sdist's metadata before it saves it,
which for vqf means building Cython and numpy from source (minutes, and it fails without `wheel`);
the files themselves are what the harness needs, so they are fetched by PyPI's JSON API and checked.
"""
import hashlib
import json
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.request

# name: (version, sha256 of the sdist, the file inside it that shows the unpacked source is whole)
PACKAGES = {
    "vqf": ("2.1.2", "2bf7134ffb181d518ac8c0855a239881c5a3e06e927605c351e72bbce1623233", "vqf/cpp/vqf.cpp"),
    "imufusion": ("1.3.3", "b2175e5ed1e1cca95ef8673432d1f089037f957cde4325a510738c9e7ad3b87d", "Fusion/FusionAhrs.c"),
}


def sdist_url(name, version):
    with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as response:
        info = json.load(response)
    for f in info.get("releases", {}).get(version, []):
        if f["packagetype"] == "sdist":
            return f["url"]
    raise RuntimeError(f"PyPI lists no source distribution of {name} {version}")


def fetch(name, version, digest, marker, folder):
    target = os.path.join(folder, name)
    if os.path.isfile(os.path.join(target, marker)):
        return
    url = sdist_url(name, version)
    with urllib.request.urlopen(url, timeout=120) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != digest:
        raise RuntimeError(f"{url}: SHA-256 differs from the pinned {digest}")
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        archive = os.path.join(scratch, "sdist.tar.gz")
        with open(archive, "wb") as out:
            out.write(data)
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                path = os.path.normpath(member.name)
                if path.startswith("..") or os.path.isabs(path) or not (member.isfile() or member.isdir()):
                    raise RuntimeError(f"{url}: unexpected entry {member.name!r}")
            tar.extractall(scratch)
        top = os.path.join(scratch, f"{name}-{version}")
        if not os.path.isfile(os.path.join(top, marker)):
            raise RuntimeError(f"{url}: no {marker} inside")
        shutil.rmtree(target, ignore_errors=True)
        os.rename(top, target)


def main():
    if len(sys.argv) != 2:
        print("usage: fetch_references.py DIR", file=sys.stderr)
        return 64
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    ok = True
    for name, (version, digest, marker) in PACKAGES.items():
        try:
            fetch(name, version, digest, marker, folder)
            print(f"reference: {name} {version} source in {os.path.join(folder, name)}")
        except Exception as error:  # network, PyPI, archive: say which and go on with the other
            ok = False
            print(f"reference: {name} {version} missing ({error}); its side-by-side figures will be skipped")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
