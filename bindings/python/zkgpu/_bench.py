"""`python -m zkgpu bench ed25519|ntt|poseidon2|msm`: the Python call's time next to the C++ API's
for the same work, per size and backend, and the CPU-vs-GPU throughput curve.

The C++ side is a timing helper of the module (zkgpu._core.time_*) that calls the library in a C++
loop on inputs prepared once, as a C++ user would (an Ed25519PackedBatch over the same arrays,
Montgomery buffers, an MSM bases handle); the Python side times the public function on NumPy
arrays (Ed25519 messages as a list of bytes, the form Python code has, or with --messages rows the
(n, L) array the C++ side reads). Both loops are the same:
one warm-up call, then calls until --min-time seconds have passed, giving the mean per call; the two
alternate for --rounds rounds and each side reports its best round (a shared machine's noise
lands on both). The overhead is (python - c++) / c++. tqdm, if installed, shows a progress bar; --plot FILE.png
draws the throughput curve with matplotlib.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from . import _core
from ._ed25519 import ed25519_verify_batch
from ._field import ntt
from ._hash import poseidon2_permute
from ._msm import MsmBases, msm, scalars_array

DEFAULT_SIZES = (1, 64, 4096, 1 << 20)
OPS = ("ed25519", "ntt", "poseidon2", "msm")

# RFC 8032 section 7.1 TEST 2 (public test data): a valid signature to verify n times.
_ED_PK = bytes.fromhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
_ED_SIG = bytes.fromhex("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                        "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
_ED_MSG = bytes.fromhex("72")
# A point of G1 (compressed; the first point of tests/vectors/bls12_377's MSM known answer).
_G1_POINT = bytes.fromhex("9063416a6ded7a8590dc816765610688551930a2c9970ee97e4b2addf3f7617e"
                          "ed52544b5adb6e05919e93413145ed00")
_MSM_DISTINCT = 256  # distinct bases (k * point), tiled to n


def _time(call, min_seconds: float) -> tuple[float, int]:
    call()
    calls, t0 = 0, time.perf_counter()
    while True:
        call()
        calls += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= min_seconds:
            return elapsed / calls, calls


def _case(op: str, n: int, backend: str, rng, messages: str = "list"):
    """(python call, c++ timer) for n items of op; messages: the Ed25519 messages' form in the
    Python call ("list" of bytes, or "rows": the (n, L) uint8 array the C++ side reads)."""
    if op == "ed25519":
        pk = np.frombuffer(_ED_PK * n, np.uint8).reshape(n, 32)
        sig = np.frombuffer(_ED_SIG * n, np.uint8).reshape(n, 64)
        msgs = [_ED_MSG] * n
        msg_rows = np.frombuffer(_ED_MSG * n, np.uint8).reshape(n, len(_ED_MSG))
        py_msgs = msgs if messages == "list" else msg_rows
        return (lambda: ed25519_verify_batch(pk, sig, py_msgs, backend=backend),
                lambda t: _core.time_ed25519(pk, sig, msg_rows, "openssl", backend, t))
    if op == "ntt":
        log_n = max(0, (n - 1).bit_length())
        v = rng.integers(0, _core.P, 1 << log_n, dtype=np.uint32)
        return (lambda: ntt(v, backend=backend), lambda t: _core.time_ntt(v, log_n, 1, backend, t))
    if op == "poseidon2":
        s = rng.integers(0, _core.P, (n, 16), dtype=np.uint32)
        return (lambda: poseidon2_permute(s, backend=backend), lambda t: _core.time_poseidon2(s, 16, backend, t))
    if op == "msm":
        k = min(n, _MSM_DISTINCT)
        distinct = [msm([_G1_POINT], [i + 1], backend="cpu") for i in range(k)]
        points = np.frombuffer(b"".join(distinct[i % k] for i in range(n)), np.uint8).reshape(n, 48)
        scalars = scalars_array([int(x) for x in rng.integers(1, 1 << 62, n)])
        bases = MsmBases(points)
        return (lambda: bases.msm(scalars, backend=backend), lambda t: _core.time_msm(points, scalars, backend, t))
    raise ValueError(op)


def run(op: str, sizes, backends, min_seconds: float, show_bar: bool = True, rounds: int = 3,
        messages: str = "list") -> list[dict]:
    rng = np.random.default_rng(1)
    steps = [(n, b) for n in sizes for b in backends]
    bar = _bar(len(steps), f"bench {op}") if show_bar else None
    rows = []
    for n, b in steps:
        py_call, cpp_timer = _case(op, n, b, rng, messages)
        py_s = cpp_s = float("inf")
        py_calls = cpp_calls = 0
        for _ in range(rounds):
            t, c = _time(py_call, min_seconds)
            py_s, py_calls = min(py_s, t), py_calls + c
            t, c = cpp_timer(min_seconds)
            cpp_s, cpp_calls = min(cpp_s, t), cpp_calls + c
        rows.append({"op": op, "items": n, "backend": b, "python_s": py_s, "cpp_s": cpp_s,
                     "overhead": (py_s - cpp_s) / cpp_s if cpp_s > 0 else 0.0, "items_per_s": n / py_s,
                     "python_calls": py_calls, "cpp_calls": int(cpp_calls)})
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return rows


def _bar(total: int, desc: str):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, file=sys.stderr)


def print_table(rows: list[dict], out=sys.stdout) -> None:
    out.write(f"{'op':<10} {'items':>8} {'backend':<7} {'python ms':>11} {'c++ ms':>11} {'overhead':>9} "
              f"{'items/s':>12}\n")
    for r in rows:
        out.write(f"{r['op']:<10} {r['items']:>8} {r['backend']:<7} {1e3 * r['python_s']:>11.4f} "
                  f"{1e3 * r['cpp_s']:>11.4f} {100 * r['overhead']:>8.1f}% {r['items_per_s']:>12.4g}\n")


def plot(rows: list[dict], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("zkgpu bench: --plot needs matplotlib (pip install matplotlib, or zkgpu[bench])")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for b in sorted({r["backend"] for r in rows}):
        pts = [(r["items"], r["items_per_s"]) for r in rows if r["backend"] == b]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=b)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("items per call")
    ax.set_ylabel("items per second (Python call)")
    ax.set_title(f"zkgpu {rows[0]['op']}: CPU vs GPU throughput" if rows else "zkgpu")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m zkgpu bench", description=__doc__.split("\n\n")[0])
    p.add_argument("op", choices=OPS)
    p.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)), help="items per call, comma-separated")
    p.add_argument("--backend", default="all", choices=("all", "cpu", "cuda", "auto"),
                   help="all: cpu, and cuda when a GPU is usable")
    p.add_argument("--min-time", type=float, default=0.5, help="seconds each measurement runs (default 0.5)")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each side (default 3)")
    p.add_argument("--plot", metavar="FILE.png", help="draw the throughput curve (matplotlib)")
    p.add_argument("--json", action="store_true", help="one JSON object per measurement instead of the table")
    p.add_argument("--no-bar", action="store_true", help="no progress bar")
    p.add_argument("--messages", default="list", choices=("list", "rows"),
                   help="ed25519: the Python call's messages as a list of bytes (default) or the (n, L) "
                        "uint8 array the C++ side reads, in place")
    a = p.parse_args(argv)
    try:
        sizes = [int(s) for s in a.sizes.split(",") if s]
    except ValueError:
        p.error(f"--sizes {a.sizes!r}: comma-separated counts")
    if any(n < 1 for n in sizes):
        p.error("--sizes: every size must be at least 1")
    if a.backend == "all":
        backends = ["cpu"] + (["cuda"] if _core.cuda_usable() else [])
    else:
        backends = [a.backend]
    if a.plot:  # fail before the measurements, not after
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise SystemExit("zkgpu bench: --plot needs matplotlib (pip install matplotlib, or zkgpu[bench])")
    if a.rounds < 1:
        p.error("--rounds must be at least 1")
    rows = run(a.op, sizes, backends, a.min_time, show_bar=not a.no_bar, rounds=a.rounds, messages=a.messages)
    if a.json:
        for r in rows:
            print(json.dumps(r))
    else:
        print_table(rows)
    if a.plot:
        plot(rows, a.plot)
        print(f"plot: {a.plot}")
    return 0
