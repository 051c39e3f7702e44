#!/usr/bin/env python3
"""The layout rules of ARCHITECTURE.md, checked by reading the tree's #include lines.

  1. src/ is one folder per concept; inside a concept only cpu/ and cuda/ subfolders.
  2. cpu/ and cuda/ never include each other's files (of any concept).
  3. Nothing in src/ or include/ includes cli/, tests/ or tools/ (every quoted include of a library
     file resolves inside src/ or include/).
  4. Public headers (include/zkgpu/) include only public headers ("zkgpu/...") and system headers.
  5. The header-only arithmetic (include/zkgpu/core/) includes only itself, and calls no getenv, no
     OS function and no allocator.
  6. getenv appears only in src/runtime/env.cpp.
  7. No library source file is longer than MAX_LINES (a file over it says in LONG_FILES why, and
     the entry goes once the file is split).
  8. The C ABI header (include/zkgpu.h) is self-contained C99: it includes only <stddef.h> and
     <stdint.h>.
  9. The CLI (cli/) includes only the public API ("zkgpu/..."), the text formats ("io/..."),
     tools/bench_support ("bench_support/...") and its own files (no folder in the name).
 10. tools/bench_support includes only the public API, its own files and the library internals
     listed in BENCH_SUPPORT_INTERNALS, each with the reason it cannot use the public API (the
     check fails if a listed internal is no longer included, so the list only shrinks).

`check_layout.py [ROOT]` checks the tree at ROOT (default: the repository) and prints every
violation; `check_layout.py --self-test` plants one violation of each rule in a scratch tree and
fails unless every one is reported.
"""
import os
import re
import sys
import tempfile

MAX_LINES = 600
# Files still over MAX_LINES, each with the reason. The check fails if one is listed but fits.
LONG_FILES = {}
CLI_ALLOWED = ("zkgpu/", "io/", "bench_support/")
BENCH_SUPPORT = "tools/bench_support"
BENCH_SUPPORT_INTERNALS = {
    "runtime/cuda/runtime.cuh": "checked CUDA calls, device buffers, streams and events of the one GPU host "
    "layer, for the probes' kernels and the event timings (the same error mapping as the library's)",
    "ntt/cuda/api.hpp": "NttKernelForm, the NTT kernel form the device timings sweep (a tuning value, not public)",
    "ntt/cuda/ntt.cuh": "the enqueue-only NTT timed between two events: the public ntt_device checks its "
    "pointers on the host first, which the events would count at small sizes",
    "poseidon2/cuda/poseidon2.cuh": "the enqueue-only permutation timed between two events (as ntt/cuda/ntt.cuh)",
    "merkle/cuda/merkle.cuh": "the enqueue-only tree build timed between two events (as ntt/cuda/ntt.cuh)",
    "pow/cuda/pow.cuh": "the GPU grind, which has no public device-pointer call",
    "merkle/cpu/merkle_cpu.hpp": "the tree's hashing without the public MerkleTree's matrix copy (CPU)",
    "merkle/cuda/api.hpp": "the same hashing from host memory through the GPU",
    "msm/cpu/field_ifma.hpp": "the CPU MSM's AVX-512 IFMA field lanes, which the IFMA PADD probes run (host-only "
    "ISA code, not public)",
    "ed25519/cuda/backend.hpp": "the Ed25519 kernel choice and chunk size the bench sweeps, and the kernel alone",
}
SOURCE_EXT = (".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
ANY_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
C_ABI_HEADER = "include/zkgpu.h"
C_ABI_INCLUDES = ("stddef.h", "stdint.h")
OS_CALLS = re.compile(r"\b(getenv|madvise|mmap|malloc|calloc|free|fopen|cpuid|__cpuid|sysconf)\s*\(|\bnew\s+[A-Za-z_]")


def files_under(root, top):
    base = os.path.join(root, top)
    for d, _, names in os.walk(base):
        for n in sorted(names):
            if n.endswith(SOURCE_EXT):
                yield os.path.relpath(os.path.join(d, n), root)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def check(root):
    bad = []
    src = list(files_under(root, "src"))
    pub = list(files_under(root, "include"))
    # 1. concept folders
    for f in src:
        parts = f.split("/")
        if len(parts) == 2:
            bad.append(f"{f}: rule 1, a file directly in src/ (it belongs to a concept folder)")
        elif len(parts) > 3 and parts[2] not in ("cpu", "cuda"):
            bad.append(f"{f}: rule 1, subfolder '{parts[2]}' of a concept (only cpu/ and cuda/)")
        elif len(parts) > 4:
            bad.append(f"{f}: rule 1, nested deeper than src/<concept>/<cpu|cuda>/")
    for f in src + pub:
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        incs = INCLUDE.findall(text)
        side = "cpu" if "/cpu/" in f else "cuda" if "/cuda/" in f else None
        for inc in incs:
            # 2. cpu <-> cuda
            if side == "cpu" and "/cuda/" in inc:
                bad.append(f"{f}: rule 2, a cpu/ file includes {inc}")
            if side == "cuda" and "/cpu/" in inc:
                bad.append(f"{f}: rule 2, a cuda/ file includes {inc}")
            # 3. resolves inside the library
            here = os.path.join(os.path.dirname(f), inc)
            roots = [os.path.join("include", inc)] + ([os.path.join("src", inc), here] if f.startswith("src/") else [])
            if not any(os.path.exists(os.path.join(root, r)) for r in roots):
                bad.append(f"{f}: rule 3, includes {inc}, which is not a library file (cli/, tests/, tools/?)")
            # 4. public headers
            if f.startswith("include/") and not inc.startswith("zkgpu/"):
                bad.append(f"{f}: rule 4, a public header includes {inc}")
            # 5. core includes only core
            if f.startswith("include/zkgpu/core/") and not inc.startswith("zkgpu/core/"):
                bad.append(f"{f}: rule 5, core arithmetic includes {inc}")
        code = strip_comments(text)
        if f.startswith("include/zkgpu/core/"):
            m = OS_CALLS.search(code)
            if m:
                bad.append(f"{f}: rule 5, core arithmetic calls {m.group(0).strip()}")
        # 8. the C ABI header
        if f == C_ABI_HEADER:
            for inc in ANY_INCLUDE.findall(code):
                if inc not in C_ABI_INCLUDES:
                    bad.append(f"{f}: rule 8, the C ABI header includes {inc} (only <stddef.h> and <stdint.h>)")
        # 6. getenv
        if re.search(r"\bgetenv\s*\(", code) and f != "src/runtime/env.cpp":
            bad.append(f"{f}: rule 6, getenv outside src/runtime/env.cpp")
        # 7. size
        if f.startswith("src/"):
            n = text.count("\n")
            if n > MAX_LINES and f not in LONG_FILES:
                bad.append(f"{f}: rule 7, {n} lines (more than {MAX_LINES})")
            if n <= MAX_LINES and f in LONG_FILES:
                bad.append(f"{f}: rule 7, {n} lines now: remove it from LONG_FILES")
    # 9. the CLI over the public API
    for f in files_under(root, "cli"):
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        for inc in INCLUDE.findall(text):
            if "/" in inc and not inc.startswith(CLI_ALLOWED):
                bad.append(f"{f}: rule 9, the CLI includes {inc} (only zkgpu/, io/, bench_support/)")
    # 10. tools/bench_support over the public API and the listed internals
    used = set()
    for f in files_under(root, BENCH_SUPPORT):
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        for inc in INCLUDE.findall(text):
            if inc.startswith(("zkgpu/", "bench_support/")):
                continue
            if inc in BENCH_SUPPORT_INTERNALS:
                used.add(inc)
            else:
                bad.append(f"{f}: rule 10, tools/bench_support includes {inc} (public headers, bench_support/ "
                           "and BENCH_SUPPORT_INTERNALS only)")
    if os.path.isdir(os.path.join(root, BENCH_SUPPORT)):
        for inc in sorted(set(BENCH_SUPPORT_INTERNALS) - used):
            bad.append(f"{inc}: rule 10, listed in BENCH_SUPPORT_INTERNALS but no longer included: remove the entry")
    for f in LONG_FILES:
        if not os.path.exists(os.path.join(root, f)):
            bad.append(f"{f}: rule 7, listed in LONG_FILES but gone: remove the entry")
    return bad


def self_test():
    planted = {
        "src/stray.cpp": "",                                            # 1
        "src/ntt/detail/x.cpp": "",                                     # 1
        "src/ntt/cpu/a.cpp": '#include "ntt/cuda/b.cuh"\n',             # 2
        "src/ntt/cuda/b.cuh": '#include "ntt/cpu/c.hpp"\n',             # 2
        "src/ntt/cpu/c.hpp": "",
        "src/ntt/ntt.cpp": '#include "bench_support/gpu_timing.hpp"\n', # 3
        "include/zkgpu/api.hpp": '#include "ntt/cpu/c.hpp"\n',          # 4 (and 3)
        "include/zkgpu/core/f.hpp": '#include "zkgpu/api.hpp"\nint* g() { return new int; }\n',  # 5 twice
        "src/runtime/flags.cpp": 'const char* v = getenv("X");\n',      # 6
        "src/runtime/big.cpp": "x\n" * (MAX_LINES + 1),                 # 7
        "include/zkgpu.h": "#include <stddef.h>\n#include <stdbool.h>\n",  # 8
        "cli/cmd_x.cpp": '#include "zkgpu/ntt.hpp"\n#include "ntt/cpu/c.hpp"\n',  # 9
        "tools/bench_support/t.cpp": '#include "zkgpu/msm.hpp"\n#include "msm/cuda/api.hpp"\n',  # 10
    }
    expect = {("src/stray.cpp", "rule 1"), ("src/ntt/detail/x.cpp", "rule 1"), ("src/ntt/cpu/a.cpp", "rule 2"),
              ("src/ntt/cuda/b.cuh", "rule 2"), ("src/ntt/ntt.cpp", "rule 3"), ("include/zkgpu/api.hpp", "rule 4"),
              ("include/zkgpu/core/f.hpp", "rule 5"), ("src/runtime/flags.cpp", "rule 6"),
              ("src/runtime/big.cpp", "rule 7"), ("include/zkgpu.h", "rule 8"), ("cli/cmd_x.cpp", "rule 9"),
              ("tools/bench_support/t.cpp", "rule 10"), ("pow/cuda/pow.cuh", "rule 10")}
    with tempfile.TemporaryDirectory() as root:
        for path, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            open(os.path.join(root, path), "w").write(text)
        got = check(root)
    missing = [e for e in expect if not any(g.startswith(e[0] + ":") and e[1] in g for g in got)]
    core_hits = [g for g in got if g.startswith("include/zkgpu/core/f.hpp") and "rule 5" in g]
    if missing or len(core_hits) < 2:
        print("self-test: not reported:", missing, "core rule-5 reports:", core_hits)
        return 1
    print(f"self-test: all {len(expect)} planted violations reported")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    bad = check(os.path.abspath(root))
    for b in bad:
        print(b)
    print(f"layout: {len(bad)} violation(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
