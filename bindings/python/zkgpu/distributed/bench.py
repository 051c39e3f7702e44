"""`python -m zkgpu.distributed bench`: throughput against the number of workers, and without Ray.

Each row runs the same batches: "direct" calls the library in this process one batch after
another (what a user without Ray would write; the CPU backend on all of this host's threads),
then a Pool of 1, 2, ... workers runs them through imap (a CPU worker gets the threads of its
cpus_per_worker: Ray sets OMP_NUM_THREADS to them), once with the batches as arrays (the driver
puts each into the object store) and once as references to a batch stored before the clock. The workers are started and warmed (one
batch each) before the clock starts; every run's results are checked against the direct ones.
"""

import argparse
import functools
import json
import sys
import time

import numpy as np
import ray

import zkgpu

from . import _bench_inputs, _ops, imap
from ._pool import Pool, init_ray, plan

OPS = {
    "ed25519": (_bench_inputs.ed25519_batch, functools.partial(_ops.ed25519, mode="openssl")),
    "mldsa": (_bench_inputs.mldsa_batch, functools.partial(_ops.mldsa, set=65, external_mu=False)),
}


def _worker_counts(text, available):
    if text:
        counts = [int(c) for c in text.split(",")]
        if any(c < 1 for c in counts):
            raise SystemExit(f"--workers: counts must be positive, not {text!r}")
        return counts
    counts, c = [], 1
    while c < available:
        counts.append(c)
        c *= 2
    return counts + [max(1, available)]


def _timed(run):
    start = time.perf_counter()
    results = run()
    return time.perf_counter() - start, results


def _same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def _put_seconds(batch, runs=3):
    """The median time of one ray.put of the batch: the driver's copy into the object store."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ref = ray.put(batch)
        times.append(time.perf_counter() - start)
        del ref
    return sorted(times)[len(times) // 2]


def _busy(pool):
    """Seconds the pool's workers have spent inside batches, all of them together."""
    return sum(s for _, s in ray.get([a.stats.remote() for a in pool.actors]))


def bench(op, worker_counts, batches, batch_size, gpu, log, cpus_per_worker=None):
    make, fn = OPS[op]
    batch = make(batch_size)
    items = [batch] * batches
    rows = []
    shape = plan(gpu=gpu, cpus_per_worker=cpus_per_worker)
    backend = shape["backend"]
    fn(batch, backend)  # the library's one-time set-up (tables, GPU context) is not timed
    seconds, direct = _timed(lambda: [fn(b, backend) for b in items])
    report = {"op": op, "batches": batches, "batch_size": batch_size, "backend": backend,
              "gpu_workers": shape["gpu"], "cpus_per_worker": shape["cpus_per_worker"],
              "ray_version": ray.__version__, "zkgpu_version": zkgpu.__version__,
              "driver_threads": zkgpu.cpu_features()["threads"],
              "direct": {"seconds": seconds, "items_per_s": batches * batch_size / seconds},
              "put_seconds": _put_seconds(batch), "workers": rows}
    # The same calls in the driver on the batch as the object store holds it (what a worker's
    # arrays are: read-only views of shared memory), apart from any scheduling.
    from_store = ray.get(ray.put(batch))
    fn(from_store, backend)
    seconds, _ = _timed(lambda: [fn(from_store, backend) for _ in items])
    report["direct_from_store"] = {"seconds": seconds, "items_per_s": batches * batch_size / seconds}
    del from_store
    log(f"direct: {report['direct']['items_per_s']:.0f} items/s; on the object store's copy: "
        f"{report['direct_from_store']['items_per_s']:.0f} items/s; one ray.put of a batch: "
        f"{1e3 * report['put_seconds']:.1f} ms")
    # Two ways in: "arrays", each batch handed over as NumPy arrays, which the driver copies into
    # the object store on the way (ray.put); "refs", the batch already there (as an upstream Ray
    # task leaves its output), which measures the scheduling alone.
    stored = ray.put(batch)
    for count in worker_counts:
        with Pool(workers=count, gpu=gpu, cpus_per_worker=cpus_per_worker) as pool:
            list(imap(fn, [batch] * count, pool=pool))
            for inputs, sent in (("arrays", items), ("refs", [stored] * batches)):
                before = _busy(pool)
                seconds, results = _timed(lambda: list(imap(fn, sent, pool=pool)))
                busy = _busy(pool) - before
                if not _same(results, direct):
                    raise SystemExit(f"bench: {count} workers gave other results than the direct calls")
                rate = batches * batch_size / seconds
                rows.append({"workers": count, "inputs": inputs, "seconds": seconds, "items_per_s": rate,
                             "vs_direct": rate / report["direct"]["items_per_s"],
                             "worker_ms_per_batch": 1e3 * busy / batches})
                log(f"{count} workers, {inputs}: {rate:.0f} items/s")
    return report


def table(report):
    lines = [f"{report['op']}: {report['batches']} batches of {report['batch_size']}, backend "
             f"{report['backend']}, {report['cpus_per_worker']} CPU(s) per worker"
             f"{', one GPU each' if report['gpu_workers'] else ''}; one ray.put of a batch "
             f"{1e3 * report['put_seconds']:.1f} ms",
             f"{'workers':>8} {'inputs':>7} {'seconds':>9} {'items/s':>12} {'vs direct':>10} "
             f"{'ms/batch in workers':>20}"]
    direct = report["direct"]
    lines.append(f"{'direct':>8} {'-':>7} {direct['seconds']:9.3f} {direct['items_per_s']:12.0f} "
                 f"{1.0:10.2f} {1e3 * direct['seconds'] / report['batches']:20.2f}")
    stored = report.get("direct_from_store")
    if stored:
        lines.append(f"{'direct':>8} {'store':>7} {stored['seconds']:9.3f} {stored['items_per_s']:12.0f} "
                     f"{stored['items_per_s'] / direct['items_per_s']:10.2f} "
                     f"{1e3 * stored['seconds'] / report['batches']:20.2f}")
    for row in report["workers"]:
        lines.append(f"{row['workers']:>8} {row['inputs']:>7} {row['seconds']:9.3f} {row['items_per_s']:12.0f} "
                     f"{row['vs_direct']:10.2f} {row['worker_ms_per_batch']:20.2f}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m zkgpu.distributed")
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("bench", help="throughput against the number of Ray workers")
    b.add_argument("--op", choices=sorted(OPS), default="ed25519")
    b.add_argument("--workers", help="comma-separated worker counts (default 1, 2, 4, ... up to "
                   "the cluster's GPUs, or its CPUs without GPUs)")
    b.add_argument("--batches", type=int, default=16)
    b.add_argument("--batch-size", type=int, default=4096)
    b.add_argument("--gpu", choices=("auto", "yes", "no"), default="auto",
                   help="GPU workers (num_gpus=1 each), CPU workers, or GPUs if the cluster has any")
    b.add_argument("--cpus-per-worker", type=float, help="the CPUs Ray reserves for each worker, "
                   "and its threads (default: as Pool, the cluster's CPUs per GPU on GPU workers, 1 "
                   "on CPU workers)")
    b.add_argument("--address", help="the Ray cluster to join (default: start a local one)")
    b.add_argument("--json", metavar="FILE", help="also write the report as JSON ('-': stdout)")
    args = parser.parse_args(argv)
    if args.batches < 1 or args.batch_size < 1:
        parser.error("--batches and --batch-size must be positive")
    gpu = {"auto": None, "yes": True, "no": False}[args.gpu]
    if not ray.is_initialized():
        init_ray(args.address, include_dashboard=False)
    shape = plan(gpu=gpu, cpus_per_worker=args.cpus_per_worker)
    report = bench(args.op, _worker_counts(args.workers, shape["workers"]), args.batches, args.batch_size, gpu,
                   lambda line: print(line, file=sys.stderr, flush=True), args.cpus_per_worker)
    if args.json == "-":
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        print(table(report))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=2)
    return 0
