#!/usr/bin/env python3
"""List the Rust functions over N lines (default 80) under src/, longest
first, and count the `pub` items (a rough count: lines starting with
`pub ` / `pub(crate)` excluded). Usage: tools/long_functions.py [N]"""
import os
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 80
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")
PUB = re.compile(r"^\s*pub\s+(fn|struct|enum|trait|type|const|static|mod|use|macro)\b")


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, start, opened = 0, i, False
        j = i
        while j < len(lines):
            code = re.sub(r'"(\\.|[^"\\])*"|//.*', "", lines[j])
            if not opened and ";" in code and "{" not in code:
                break  # a declaration without a body
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                yield m.group(6), start + 1, j - start + 1
                break
            j += 1
        i += 1


def main():
    long, pubs = [], 0
    for root, _, files in os.walk("src"):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            for line in open(path, encoding="utf-8"):
                if PUB.match(line):
                    pubs += 1
            for name, at, n in functions(path):
                if n > LIMIT:
                    long.append((n, f"{path}:{at}", name))
    for n, where, name in sorted(long, reverse=True):
        print(f"{n:5} {name:40} {where}")
    print(f"{len(long)} functions over {LIMIT} lines; {pubs} `pub` items")


main()
