#!/usr/bin/env python3
"""Writes the seed corpus of the libFuzzer targets (tests/fuzz/corpus/<target>/).

  python3 scripts/gen_fuzz_corpus.py --zkgpu build/zkgpu [--out tests/fuzz/corpus]

Valid seeds are named valid-* (tests/fuzz/fuzz_corpus_test.cpp requires the harness to accept
them), the rest invalid-*. The ML-KEM / ML-DSA keys, ciphertexts and signatures come from the
CLI (`zkgpu mlkem|mldsa ...`) on fixed seeds; the BLS12-377 encodings from Python integer
arithmetic (the reference of tests/vectors/bls12_377/gen_msm_cli_kat.py); the Ed25519 lines from
RFC 8032 and the msm lines from tests/vectors. The WHIR proofs come from the gtest
WhirProofFuzz.SeedCorpusIsValidAndMapped, which writes them to a directory:

  mkdir -p /tmp/whir && ZKGPU_FUZZ_CORPUS_DIR=/tmp/whir build/zkgpu_tests \
      --gtest_filter=WhirProofFuzz.SeedCorpusIsValidAndMapped
  python3 scripts/gen_fuzz_corpus.py --zkgpu build/zkgpu --whir-seeds /tmp/whir

Byte 0 of an ML-KEM, ML-DSA, BLS12-377-encoding or Poseidon2 seed selects the operation (see each
harness).
"""
import argparse
import hashlib
import json
import os
import random
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTORS = os.path.join(ROOT, "tests", "vectors")


def run(zkgpu, args, stdin):
    out = subprocess.run([zkgpu] + args + ["--backend", "cpu"], input=stdin.encode(), capture_output=True, check=True)
    return out.stdout.decode().strip().split("\n")


class Writer:
    def __init__(self, out):
        self.out = out

    def __call__(self, target, name, data):
        d = os.path.join(self.out, target)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())


def hx(n, rng):
    return bytes(rng.getrandbits(8) for _ in range(n)).hex()


# --- ML-KEM: byte 0 = set index (512, 768, 1024) + 3 * op (keygen, encaps, decaps) ------------
def mlkem(zkgpu, w):
    rng = random.Random(203)
    t = "mlkem_line_fuzz"
    for si, s in enumerate(["512", "768", "1024"]):
        seeds = [f"{hx(32, rng)}:{hx(32, rng)}" for _ in range(2)]
        keys = [l.split(":") for l in run(zkgpu, ["mlkem", "keygen", "--set", s], "\n".join(seeds) + "\n")]
        msgs = [hx(32, rng) for _ in keys]
        cts = [l.split(":") for l in run(zkgpu, ["mlkem", "encaps", "--set", s],
                                         "".join(f"{ek}:{m}\n" for (ek, _), m in zip(keys, msgs)))]
        w(t, f"valid-keygen-{s}", bytes([si]) + (seeds[0] + "\n").encode())
        w(t, f"valid-encaps-{s}", bytes([si + 3]) + f"{keys[0][0]}:{msgs[0]}\n".encode())
        w(t, f"valid-decaps-{s}", bytes([si + 6]) + f"{keys[0][1]}:{cts[0][0]}\n".encode())
        if s == "512":  # two items: the batch path
            w(t, "valid-decaps-512-two-lines",
              bytes([si + 6]) + "".join(f"{dk}:{c[0]}\n" for (_, dk), c in zip(keys, cts)).encode())
            w(t, "valid-encaps-512-upper-case-crlf", bytes([si + 3]) + f"{keys[1][0].upper()}:{msgs[1]}\r\n".encode())
            ek = bytearray.fromhex(keys[0][0])
            ek[0], ek[1] = 0xff, ek[1] | 0x0f  # first coefficient 4095 >= q
            w(t, "invalid-encaps-512-unreduced-ek", bytes([si + 3]) + f"{ek.hex()}:{msgs[0]}\n".encode())
            dk = bytearray.fromhex(keys[0][1])
            dk[384 * 2 + 800] ^= 1  # the stored H(ek)
            w(t, "invalid-decaps-512-hash-mismatch", bytes([si + 6]) + f"{dk.hex()}:{cts[0][0]}\n".encode())
            w(t, "invalid-decaps-512-short-ct", bytes([si + 6]) + f"{keys[0][1]}:{cts[0][0][:-2]}\n".encode())
            w(t, "invalid-keygen-odd-digits", bytes([si]) + (seeds[0][:-1] + "\n").encode())
            w(t, "invalid-keygen-not-hex", bytes([si]) + (seeds[0][:10] + "g" + seeds[0][11:] + "\n").encode())
            w(t, "invalid-keygen-three-fields", bytes([si]) + (seeds[0] + ":00\n").encode())


# --- ML-DSA: byte 0 = set index (44, 65, 87) + 3 * op (keygen, sign, verify) + 9 * external mu --
def mldsa(zkgpu, w):
    rng = random.Random(204)
    t = "mldsa_line_fuzz"
    for si, s in enumerate(["44", "65", "87"]):
        xi = hx(32, rng)
        pk, sk = run(zkgpu, ["mldsa", "keygen", "--set", s], xi + "\n")[0].split(":")
        msg, ctx, rnd = hx(40, rng), hx(5, rng), hx(32, rng)
        sig = run(zkgpu, ["mldsa", "sign", "--set", s], f"{sk}:{msg}:{ctx}:\n")[0]
        w(t, f"valid-keygen-{s}", bytes([si]) + (xi + "\n").encode())
        w(t, f"valid-sign-{s}", bytes([si + 3]) + f"{sk}:{msg}:{ctx}:\n".encode())
        w(t, f"valid-verify-{s}", bytes([si + 6]) + f"{pk}:{msg}:{ctx}:{sig}\n".encode())
        if s == "44":
            tr = hashlib.shake_256(bytes.fromhex(pk)).digest(64)
            mu = hashlib.shake_256(tr + bytes([0, len(ctx) // 2]) + bytes.fromhex(ctx + msg)).digest(64).hex()
            w(t, "valid-verify-44-external-mu", bytes([si + 6 + 9]) + f"{pk}:{mu}::{sig}\n".encode())
            w(t, "valid-sign-44-hedged-external-mu", bytes([si + 3 + 9]) + f"{sk}:{mu}::{rnd}\n".encode())
            bad = bytearray.fromhex(sig)
            bad[0] ^= 1
            w(t, "invalid-verify-44-corrupted", bytes([si + 6]) + f"{pk}:{msg}:{ctx}:{bad.hex()}\n".encode())
            w(t, "invalid-verify-44-long-context", bytes([si + 6]) + f"{pk}:{msg}:{'00' * 256}:{sig}\n".encode())
            w(t, "invalid-sign-44-short-rnd", bytes([si + 3]) + f"{sk}:{msg}:{ctx}:{rnd[:-2]}\n".encode())
            w(t, "invalid-sign-44-random-sk", bytes([si + 3]) + f"{hx(2560, rng)}:{msg}::\n".encode())
            w(t, "invalid-verify-44-three-fields", bytes([si + 6]) + f"{pk}:{msg}:{sig}\n".encode())


# --- BLS12-377: byte 0 = 0 compressed, 1 uncompressed, 2 fp hex, 3 scalar hex ---------------
P = 0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001
R = 0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001
G = (0x008848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef,
     0x01914a69c5102eff1f674f5d30afeec4bd7fb348ca3e52d96d182ad44fb82305c2fe3d3634a9591afd82de55559c8ea6)


def ec_add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and (a[1] + b[1]) % P == 0:
        return None
    if a == b:
        lam = 3 * a[0] * a[0] * pow(2 * a[1], -1, P) % P
    else:
        lam = (b[1] - a[1]) * pow(b[0] - a[0], -1, P) % P
    x = (lam * lam - a[0] - b[0]) % P
    return (x, (lam * (a[0] - x) - a[1]) % P)


def ec_mul(k, pt):
    acc = None
    for bit in bin(k)[2:]:
        acc = ec_add(acc, acc)
        if bit == "1":
            acc = ec_add(acc, pt)
    return acc


def fp_sqrt(v):  # Tonelli-Shanks; None for a non-residue
    if pow(v, (P - 1) // 2, P) != 1:
        return None
    q, s = P - 1, 0
    while q % 2 == 0:
        q, s = q // 2, s + 1
    z = 5
    m, c, t, x = s, pow(z, q, P), pow(v, q, P), pow(v, (q + 1) // 2, P)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2, i = t2 * t2 % P, i + 1
        b = pow(c, 1 << (m - i - 1), P)
        m, c, t, x = i, b * b % P, t * b * b % P, x * b % P
    return x


def le48(v):
    return bytearray(v.to_bytes(48, "little"))


def compressed(pt):
    if pt is None:
        out = le48(0)
        out[47] |= 0x40
        return bytes(out)
    out = le48(pt[0])
    if pt[1] > P - pt[1]:
        out[47] |= 0x80
    return bytes(out)


def uncompressed(pt):
    if pt is None:
        out = le48(0) + le48(0)
        out[95] |= 0x40
        return bytes(out)
    out = le48(pt[0]) + le48(pt[1])
    if pt[1] > P - pt[1]:
        out[95] |= 0x80
    return bytes(out)


def bls(w):
    rng = random.Random(377)
    t = "bls12_377_encoding_fuzz"
    k = rng.randrange(R)
    pts = {"g": G, "2g": ec_mul(2, G), "random": ec_mul(k, G), "neg-random": None, "infinity": None}
    pts["neg-random"] = (pts["random"][0], P - pts["random"][1])
    for name, pt in pts.items():
        w(t, f"valid-compressed-{name}", bytes([0]) + compressed(pt))
        w(t, f"valid-uncompressed-{name}", bytes([1]) + uncompressed(pt))
    w(t, "valid-fp-hex-gx", bytes([2]) + b"0x%x" % G[0])
    w(t, "valid-fp-hex-p-minus-1-upper", bytes([2]) + b"%X" % (P - 1))
    w(t, "valid-fp-hex-zero-leading-zeros", bytes([2]) + b"0" * 130)
    w(t, "valid-scalar-hex-r-minus-1", bytes([3]) + b"0x%x" % (R - 1))
    w(t, "valid-scalar-hex-256-bits", bytes([3]) + b"%064x" % (2**256 - 1))
    w(t, "valid-scalar-hex-small", bytes([3]) + b"5")
    w(t, "invalid-fp-hex-p", bytes([2]) + b"%x" % P)
    w(t, "invalid-fp-hex-empty-0x", bytes([2]) + b"0x")
    w(t, "invalid-fp-hex-not-hex", bytes([2]) + b"12g4")
    w(t, "invalid-scalar-hex-257-bits", bytes([3]) + b"1" + b"0" * 64)
    # x >= p, both flags, infinity flag with x != 0, x not on the curve, a curve point outside G1.
    w(t, "invalid-compressed-x-not-below-p", bytes([0]) + bytes(le48(P)))
    both = bytearray(compressed(G))
    both[47] |= 0xc0
    w(t, "invalid-compressed-both-flags", bytes([0]) + bytes(both))
    inf = bytearray(compressed(G))
    inf[47] = (inf[47] & 0x3f) | 0x40
    w(t, "invalid-compressed-infinity-nonzero-x", bytes([0]) + bytes(inf))
    x = 2
    while fp_sqrt((x**3 + 1) % P) is not None:
        x += 1
    w(t, "invalid-compressed-not-on-curve", bytes([0]) + bytes(le48(x)))
    x = 2
    while fp_sqrt((x**3 + 1) % P) is None:
        x += 1
    off = (x, fp_sqrt((x**3 + 1) % P))
    assert ec_mul(R, off) is not None
    w(t, "invalid-compressed-not-in-g1", bytes([0]) + compressed(off))
    w(t, "invalid-uncompressed-not-in-g1", bytes([1]) + uncompressed(off))
    bad = bytearray(uncompressed(G))
    bad[48] ^= 1
    w(t, "invalid-uncompressed-not-on-curve", bytes([1]) + bytes(bad))
    xf = bytearray(uncompressed(G))
    xf[47] |= 0x80
    w(t, "invalid-uncompressed-flag-on-x", bytes([1]) + bytes(xf))


# --- Poseidon2: byte 0 bit 0 = width 24 (else 16), bit 1 = whir constants (else plonky3) ------
def poseidon2(w):
    rng = random.Random(2)
    t = "poseidon2_line_fuzz"
    p = 2013265921
    line = lambda n: " ".join(str(rng.randrange(p)) for _ in range(n))
    w(t, "valid-16-plonky3", bytes([0]) + (line(16) + "\n").encode())
    w(t, "valid-24-whir-two-states", bytes([3]) + (line(24) + "\n" + line(24) + "\n").encode())
    w(t, "valid-16-whir-tabs-crlf-leading-zeros",
      bytes([2]) + ("\t".join(["0007", str(p - 1)] + [str(rng.randrange(p)) for _ in range(14)]) + "  \r\n").encode())
    w(t, "invalid-16-value-p", bytes([0]) + (" ".join([str(p)] + ["1"] * 15) + "\n").encode())
    w(t, "invalid-16-fifteen-values", bytes([0]) + (line(15) + "\n").encode())
    w(t, "invalid-24-sign", bytes([1]) + ("-1 " + line(23) + "\n").encode())
    w(t, "invalid-16-huge-value", bytes([0]) + ("99999999999999999999999 " + line(15) + "\n").encode())


# --- Ed25519 lines (RFC 8032) and msm lines (tests/vectors) ---------------------------------
def ed25519(w):
    t = "ed25519_line_fuzz"
    with open(os.path.join(VECTORS, "ed25519", "rfc8032_7.1_ed25519.json")) as f:
        vs = json.load(f)["vectors"]
    lines = [f"{v['public_key']}:{v['signature']}:{v['message']}" for v in vs]
    w(t, "valid-rfc8032-test1", lines[0] + "\n")
    w(t, "valid-rfc8032-all", "\n".join(lines) + "\n")
    w(t, "invalid-short-key", lines[1][2:] + "\n")
    w(t, "invalid-not-hex", lines[1].replace("a", "z", 1) + "\n")


def msm(w):
    t = "msm_input_fuzz"
    with open(os.path.join(VECTORS, "bls12_377", "msm_cli_kat.txt")) as f:
        lines = [l.rstrip("\n") for l in f.read().split("# expected")[0].splitlines() if l.strip()]
    w(t, "valid-line", lines[0])
    w(t, "valid-line-infinity", next(l for l in lines if l.startswith("infinity")))
    w(t, "valid-compressed-g", compressed(G))
    w(t, "valid-uncompressed-2g", uncompressed(ec_mul(2, G)))
    w(t, "invalid-two-fields", ":".join(lines[0].split(":")[:2]))
    w(t, "invalid-x-not-below-p", "%x:1:1" % P)


def whir(seeds, w):
    t = "whir_proof_fuzz"
    files = sorted(f for f in os.listdir(seeds) if f.endswith(".bin"))
    for f in files:
        with open(os.path.join(seeds, f), "rb") as fh:
            w(t, "valid-" + f, fh.read())
    with open(os.path.join(seeds, files[0]), "rb") as fh:
        proof = bytearray(fh.read())
    w(t, "invalid-truncated", bytes(proof[: len(proof) // 2]))
    w(t, "invalid-bad-magic", bytes([proof[0] ^ 0xff]) + bytes(proof[1:]))
    w(t, "invalid-trailing-byte", bytes(proof) + b"\0")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--zkgpu", required=True, help="the CLI (any build)")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "fuzz", "corpus"))
    ap.add_argument("--whir-seeds", help="the WHIR proofs the gtest wrote (see above); without it, whir_proof_fuzz is left as is")
    a = ap.parse_args()
    w = Writer(a.out)
    mlkem(a.zkgpu, w)
    mldsa(a.zkgpu, w)
    bls(w)
    poseidon2(w)
    ed25519(w)
    msm(w)
    if a.whir_seeds:
        whir(a.whir_seeds, w)


if __name__ == "__main__":
    main()
