#!/usr/bin/env python3
"""ML-KEM / ML-DSA throughput side by side: our CPU backend (`zkgpu mlkem|mldsa bench --json`),
our GPU backend when the CLI has one, and OpenSSL 3.5+ through pyca/cryptography (one thread,
one operation per call), in one run. Prints a Markdown table; --json FILE also writes the rows.

Usage: pq_bench.py --zkgpu build/zkgpu [--threads 1] [--rounds 3] [--quick] [--json out.json]
The per-core comparison of the issue is --threads 1 (OpenSSL runs on one thread here too).
Each parameter set is measured --rounds times, ours and OpenSSL alternating, and each side keeps
its best round: on a shared machine a round that lost the CPU to other processes says nothing
about either library, and alternating keeps both sides exposed to the same conditions.
Our figure for an operation is the best batch size, except for sign: its time depends on the
number of rejected attempts, which is fixed per (key, message, rnd) item and so differs between
small batches by several times; sign uses the largest batch, an average over that many items, as
OpenSSL's figure averages over its many calls with fresh randomness.
"""
import argparse
import json
import subprocess
import sys
import time

try:
    from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem
    HAVE_OSSL = True
except ImportError:  # an older wheel: report our figures only
    HAVE_OSSL = False


def ours(zkgpu, kind, s, threads, quick, backend, batches):
    args = [zkgpu, kind, "bench", "--json", "--set", s, "--backend", backend, "--threads", str(threads)]
    args += ["--quick"] if quick else ["--batch", ",".join(map(str, batches))]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip() or r.stdout.strip()
    return json.loads(r.stdout)["rows"], None


def rate(fn, min_time):
    fn()
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return n / dt


def openssl_kem(s, min_time):
    cls = {"768": mlkem.MLKEM768PrivateKey, "1024": mlkem.MLKEM1024PrivateKey}.get(s)
    if not HAVE_OSSL or cls is None:
        return {}
    sk = cls.generate()
    pk = sk.public_key()
    _, c = pk.encapsulate()
    return {"keygen": rate(cls.generate, min_time), "encaps": rate(pk.encapsulate, min_time),
            "decaps": rate(lambda: sk.decapsulate(c), min_time)}


def openssl_dsa(s, min_time):
    if not HAVE_OSSL:
        return {}
    cls = {"44": mldsa.MLDSA44PrivateKey, "65": mldsa.MLDSA65PrivateKey, "87": mldsa.MLDSA87PrivateKey}[s]
    sk = cls.generate()
    pk = sk.public_key()
    msg = bytes(32)
    sig = sk.sign(msg)
    return {"keygen": rate(cls.generate, min_time), "sign": rate(lambda: sk.sign(msg), min_time),
            "verify": rate(lambda: pk.verify(sig, msg), min_time)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zkgpu", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="smoke test: tiny batches and times")
    ap.add_argument("--json", help="also write the rows to this file")
    ap.add_argument("--batches", default="1,64,1024", help="CPU batch sizes")
    ap.add_argument("--gpu-batches", default="1024,16384,65536", help="GPU batch sizes")
    ap.add_argument("--sets", help="comma-separated subset, e.g. 768,65 (default: all six)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per set; each side keeps its best")
    a = ap.parse_args()
    batches = [int(x) for x in a.batches.split(",")]
    gpu_batches = [int(x) for x in a.gpu_batches.split(",")]
    min_time = 0.02 if a.quick else 0.5
    out = []
    plan = [("mlkem", s, openssl_kem) for s in ("512", "768", "1024")] + [("mldsa", s, openssl_dsa) for s in ("44", "65", "87")]
    if a.quick:
        plan = [("mlkem", "768", openssl_kem), ("mldsa", "65", openssl_dsa)]
    if a.sets:
        plan = [p for p in plan if p[1] in a.sets.split(",")]
    for kind, s, peer in plan:
        cpu, ossl, gpu, gpu_err = None, {}, None, None
        for _ in range(1 if a.quick else max(1, a.rounds)):
            rows, err = ours(a.zkgpu, kind, s, a.threads, a.quick, "cpu", batches)
            if rows is None:
                print(f"error: zkgpu {kind} bench --set {s}: {err}", file=sys.stderr)
                return 1
            cpu = rows if cpu is None else [max(x, y, key=lambda r: r["ops_per_s"]) for x, y in zip(cpu, rows)]
            for op, r in peer(s, min_time).items():
                ossl[op] = max(ossl.get(op, 0), r)
        gpu, gpu_err = ours(a.zkgpu, kind, s, a.threads, a.quick, "cuda", gpu_batches)
        for op in dict.fromkeys(r["op"] for r in cpu):
            rows = [r for r in cpu if r["op"] == op]
            best = max(rows, key=lambda r: r["ops_per_s"]) if op != "sign" else max(rows, key=lambda r: r["batch"])
            one = next(r for r in cpu if r["op"] == op and r["batch"] == min(x["batch"] for x in cpu))
            g = max((r["ops_per_s"] for r in gpu if r["op"] == op), default=None) if gpu else None
            o = ossl.get(op)
            out.append({"set": cpu[0]["set"], "op": op, "threads": a.threads, "ours_cpu_batch1": one["ops_per_s"],
                        "ours_cpu_best": best["ops_per_s"], "ours_cpu_best_batch": best["batch"], "ours_gpu_best": g,
                        "gpu_note": None if gpu else gpu_err, "openssl": o,
                        "openssl_over_ours": (o / best["ops_per_s"]) if o else None,
                        "openssl_over_ours_batch1": (o / one["ops_per_s"]) if o else None})
    print(f"| set | op | ours CPU ({a.threads} thr), batch 1 | ours CPU (batch) | ours GPU best | OpenSSL (1 thr) "
          "| OpenSSL / ours | OpenSSL / ours (batch 1) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in out:
        fmt = lambda x: "n/a" if x is None else f"{x:,.0f}/s"
        ratio = "n/a" if r["openssl_over_ours"] is None else f"{r['openssl_over_ours']:.2f}x"
        ratio1 = "n/a" if r["openssl_over_ours_batch1"] is None else f"{r['openssl_over_ours_batch1']:.2f}x"
        print(f"| {r['set']} | {r['op']} | {fmt(r['ours_cpu_batch1'])} | {fmt(r['ours_cpu_best'])} ({r['ours_cpu_best_batch']}) "
              f"| {fmt(r['ours_gpu_best'])} | {fmt(r['openssl'])} | {ratio} | {ratio1} |")
    if out and out[0]["gpu_note"]:
        print(f"\nGPU: {out[0]['gpu_note']}")
    if not HAVE_OSSL:
        print("\nOpenSSL: this cryptography package has no ML-KEM / ML-DSA (pip install -r scripts/requirements-pq.txt)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": out}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
