#!/usr/bin/env python3
"""Canonical-JSON hashing throughput: Python reference vs Go core/canon.

Run from the repository root:

    python3 scripts/bench_hash.py [--rounds N] [--benchtime 5x]

It builds the core/canon test binary, has it write its ~10 MB benchmark
document (and print the document's canonical hash), times Python's
json.loads + json.dumps(sort_keys, compact, ensure_ascii=False) + sha256 on
those exact bytes, checks both sides produce the same digest, then runs the
Go benchmarks on the same document and prints the rates and the ratio:
BenchmarkHash10MB (Canonicalize + Hash, bytes in as in Python) is the one
compared; BenchmarkHashValue10MB (Parse to a Value tree + HashValue) is shown
for reference.
"""

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG_DIR = os.path.join(ROOT, "core", "canon")
TARGET_RATIO = 5.0


def canonical_hash(data: bytes) -> str:
    obj = json.loads(data)
    out = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(out).hexdigest()


def time_python_once(data: bytes) -> float:
    start = time.perf_counter()
    canonical_hash(data)
    return time.perf_counter() - start


def go_bench(binary: str, benchtime: str) -> dict:
    out = subprocess.run(
        [binary, "-test.run", "^$", "-test.bench", "^Benchmark(Hash|HashValue)10MB$",
         "-test.benchtime", benchtime, "-test.count", "1"],
        cwd=PKG_DIR, check=True, capture_output=True, text=True,
    ).stdout
    rates = {}
    for m in re.finditer(r"^(Benchmark\w+?)(?:-\d+)?\s+\d+\s+\d+(?:\.\d+)? ns/op\s+(\d+(?:\.\d+)?) MB/s", out, re.M):
        rates[m.group(1)] = float(m.group(2))
    if "BenchmarkHash10MB" not in rates:
        sys.exit("could not read MB/s from go benchmark output:\n" + out)
    return rates


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of python and go (best is compared)")
    ap.add_argument("--benchtime", default="5x", help="go -test.benchtime per round")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="canon-bench-") as tmp:
        binary = os.path.join(tmp, "canon.test")
        subprocess.run(["go", "test", "-c", "-o", binary, "./core/canon"], cwd=ROOT, check=True)
        doc_path = os.path.join(tmp, "doc.json")
        go_hash = subprocess.run(
            [binary], env={**os.environ, "CANON_BENCH_DOC_OUT": doc_path},
            check=True, capture_output=True, text=True,
        ).stdout.strip()
        with open(doc_path, "rb") as f:
            data = f.read()

        py_hash = canonical_hash(data)
        if py_hash != go_hash:
            print(f"HASH MISMATCH on the benchmark document: python {py_hash} go {go_hash}", file=sys.stderr)
            return 1

        # Interleave the two sides so a noisy machine slows both alike; the
        # best round of each is reported.
        py_rates, go_rates, go_value_rates = [], [], []
        for _ in range(args.rounds):
            py_rates.append(len(data) / 1e6 / time_python_once(data))
            rates = go_bench(binary, args.benchtime)
            go_rates.append(rates["BenchmarkHash10MB"])
            if "BenchmarkHashValue10MB" in rates:
                go_value_rates.append(rates["BenchmarkHashValue10MB"])

    py_mbps, go_mbps = max(py_rates), max(go_rates)
    ratio = go_mbps / py_mbps
    print(f"document: {len(data)} bytes ({len(data) / 1e6:.1f} MB), sha256 {go_hash} (python and go agree)")
    print(f"python json.loads+dumps+sha256:  {py_mbps:8.1f} MB/s  (best of {args.rounds}; median {statistics.median(py_rates):.1f})")
    print(f"go Canonicalize+Hash (bytes):    {go_mbps:8.1f} MB/s  (best of {args.rounds}; median {statistics.median(go_rates):.1f})")
    if go_value_rates:
        print(f"go Parse+HashValue (Value tree): {max(go_value_rates):8.1f} MB/s  (reference, not compared)")
    verdict = "meets" if ratio >= TARGET_RATIO else "BELOW"
    print(f"ratio go/python: {ratio:.1f}x ({verdict} the {TARGET_RATIO:.0f}x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
