#!/usr/bin/env python3
"""Counts the @Test functions under Tests/ that start the lodestone binary (with --any: any program):
their body starts it, or calls a function of their own file that (in turn) does. A parametrised test
counts once. -v lists them.

    python3 Tools/spawned-tests.py [--any] [-v] [PACKAGE_ROOT]
"""
import re, sys, os, glob
root = next((a for a in sys.argv[1:] if not a.startswith('-')), ".")
BINARY = r"\b(runLodestone|runLodestoneLimited|BackgroundLodestone|lodestoneBinaryPath)\b|\bBackgroundProcess\((?!executable)"
ANY = (r"\b(runLodestone|runLodestoneLimited|runProgram|SpawnedChild|PipedChild|TmuxServer|GpsFake|BackgroundProcess|"
       r"MosquittoBroker|TLSMosquittoBroker|mosquittoSubscriber|tlsSubscriber|runTool|TestCertificates|posix_spawn|spawnShellCommand)\b")
PRIMS = re.compile(ANY if "--any" in sys.argv else BINARY)
def body_from(text, i):
    j = text.find('{', i)
    depth = 0
    for k in range(j, len(text)):
        if text[k] == '{': depth += 1
        elif text[k] == '}':
            depth -= 1
            if depth == 0: return text[j:k+1]
    return text[j:]
def funcs_of(text):
    out = []
    for m in re.finditer(r'\b(?:func\s+(\w+)|(init)\s*[(<])', text):
        name = m.group(1) or m.group(2)
        head = text[max(0, m.start()-400):m.start()]
        at = head.rfind('@Test')
        is_test = at >= 0 and not re.search(r'[{}]|\bfunc\b|\bvar\b|\blet\b', re.sub(r'"[^"\n]*"', '', head[at:]))
        out.append((name, body_from(text, m.end()), is_test, text.count('\n', 0, m.start()) + 1, m.start()))
    # A function nested in a test (a local helper) belongs to that test only: not a file-wide name.
    spans = [(st, st + len(b)) for (_, b, t, _, st) in out if t]
    return [(n, b, t, l) for (n, b, t, l, st) in out if t or not any(a < st < z for a, z in spans)]
def closure(funcs, known):
    spawning = set(known)
    changed = True
    while changed:
        changed = False
        for name, body, _, _ in funcs:
            if name != 'init' and name not in spawning and (PRIMS.search(body) or any(re.search(r'\b%s\s*\(' % re.escape(s), body) for s in spawning)):
                spawning.add(name); changed = True
    return spawning
support = []
for p in glob.glob(os.path.join(root, "Tests/TestSupport/*.swift")): support += funcs_of(open(p).read())
shared = set()
count = 0
for path in sorted(glob.glob(os.path.join(root, "Tests/*Tests/**/*.swift"), recursive=True)):
    funcs = funcs_of(open(path).read())
    local = closure(funcs, shared)
    for name, body, is_test, line in funcs:
        if is_test and (PRIMS.search(body) or any(re.search(r'\b%s\s*\(' % re.escape(s), body) for s in local)):
            count += 1
            if '-v' in sys.argv: print(f"{os.path.relpath(path, root)}:{line} {name}")
print(count)
