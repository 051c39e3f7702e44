"""python -m zkgpu: `bench ed25519|ntt|poseidon2|msm ...` (zkgpu._bench) and `info`."""

import sys


def _info() -> int:
    import json

    import zkgpu

    print(json.dumps({"version": zkgpu.__version__, "cuda_built": zkgpu.cuda_built(),
                      "cuda_usable": zkgpu.cuda_usable(), "cuda_unavailable_reason": zkgpu.cuda_unavailable_reason(),
                      "gpu": zkgpu.gpu_info(), "cpu": zkgpu.cpu_features()}, indent=2))
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:
        from ._bench import main as bench

        return bench(argv[1:])
    if argv[:1] == ["info"]:
        return _info()
    print("usage: python -m zkgpu bench {ed25519,ntt,poseidon2,msm} [--sizes ...] [--backend ...] [--plot FILE.png]\n"
          "       python -m zkgpu info", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
