#!/usr/bin/env python3
"""Turns the bench.json written by scripts/gpu-check.sh into the Markdown table of BENCHMARKS.md.
usage: scripts/bench_to_md.py bench.json"""
import json
import sys


def ms(v):
    return "-" if v is None else (f"{v:.4f}" if v < 1 else f"{v:.2f}")


def rate(v, unit):
    if v is None:
        return "-"
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:.2f} {suffix}{unit}/s"
    return f"{v:.0f} {unit}/s"


def main(path):
    data = json.load(open(path))
    first = next(iter(data.values()))
    print(f"CPU: {first['cpu_model']}, {first['cpu_threads']} threads, SIMD {first['simd']}; GPU: {first['gpu']}\n")
    print("| operation | size | CPU ms | GPU ms (resident) | GPU ms (host memory, with copies) | GPU/CPU | CPU rate | GPU rate | GPU vs limit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for module in data.values():
        for r in module["results"]:
            unit = {"elements": "elem", "permutations": "perm"}.get(r["unit"], r["unit"])
            ratio = r.get("gpu_over_cpu")
            frac = r.get("gpu_fraction_of_limit")
            limit = "-" if frac is None else f"{100 * frac:.0f}% of {r['limit']}"
            print(f"| {r['operation']} | {r['size']} | {ms(r['cpu_ms'])} | {ms(r['gpu_ms'])} | {ms(r['gpu_with_copies_ms'])} | "
                  f"{'-' if ratio is None else f'{ratio:.1f}x'} | {rate(r.get('cpu_per_s'), unit)} | "
                  f"{rate(r.get('gpu_per_s'), unit)} | {limit} |")


if __name__ == "__main__":
    main(sys.argv[1])
