#!/usr/bin/env python3
"""Differential test of `zkgpu mlkem` / `zkgpu mldsa` against OpenSSL through pyca/cryptography.

Random seeds and messages (seeded; ZKGPU_TEST_SEED overrides): keygen from the same seed must give
the same public key; each side decapsulates / verifies what the other produced; tampered
ciphertexts give the same implicit-rejection key on both sides; tampered signatures are rejected
by both. Exits 77 (ctest: skipped) when the installed cryptography has no ML-KEM / ML-DSA.
Usage: pq_openssl_diff.py PATH/TO/zkgpu [--items N]
"""
import argparse
import os
import random
import subprocess
import sys

try:
    from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem
except ImportError:
    print("skipped: this cryptography package has no ML-KEM / ML-DSA (needs the OpenSSL 3.5+ wheel)")
    sys.exit(77)

KEM = {"768": mlkem.MLKEM768PrivateKey, "1024": mlkem.MLKEM1024PrivateKey}  # the wheel has no 512
DSA = {"44": mldsa.MLDSA44PrivateKey, "65": mldsa.MLDSA65PrivateKey, "87": mldsa.MLDSA87PrivateKey}


def cli(zkgpu, args, lines, rc=0):
    """Runs one line command; returns its output lines (one per input line). rc: the exit status
    it must end with (0: no item rejected, 1: some item rejected; README, "Exit status")."""
    r = subprocess.run([zkgpu] + args + ["--backend", "cpu"], input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True)
    assert r.returncode == rc, f"{args}: exit status {r.returncode}, expected {rc}: {r.stderr.strip()}"
    out = r.stdout.splitlines()
    assert len(out) == len(lines), f"{args}: {len(lines)} lines in, {len(out)} out"
    return out


def check_kem(zkgpu, rng, s, n):
    seeds = [rng.randbytes(64) for _ in range(n)]
    keys = [l.split(":") for l in cli(zkgpu, ["mlkem", "keygen", "--set", s], [x[:32].hex() + ":" + x[32:].hex() for x in seeds])]
    ossl = [KEM[s].from_seed_bytes(x) for x in seeds]
    for (ek, _), o in zip(keys, ossl):
        assert bytes.fromhex(ek) == o.public_key().public_bytes_raw(), f"ML-KEM-{s}: ek differs from OpenSSL"
    # OpenSSL encapsulates, we decapsulate (and a tampered ciphertext on both sides).
    enc = [o.public_key().encapsulate() for o in ossl]
    cts = [c for _, c in enc]
    bad = [bytes([c[0] ^ 1]) + c[1:] for c in cts]
    res = cli(zkgpu, ["mlkem", "decaps", "--set", s], [dk + ":" + c.hex() for (_, dk), c in zip(keys, cts)] +
              [dk + ":" + c.hex() for (_, dk), c in zip(keys, bad)])
    ours, ours_bad = res[:n], res[n:]
    for (k, _), got, gb, o, b in zip(enc, ours, ours_bad, ossl, bad):
        assert bytes.fromhex(got) == k, f"ML-KEM-{s}: our decaps of an OpenSSL ciphertext differs"
        assert bytes.fromhex(gb) == o.decapsulate(b), f"ML-KEM-{s}: implicit-rejection keys differ"
    # We encapsulate, OpenSSL decapsulates.
    ms = [rng.randbytes(32) for _ in range(n)]
    res = cli(zkgpu, ["mlkem", "encaps", "--set", s], [ek + ":" + m.hex() for (ek, _), m in zip(keys, ms)])
    for line, o in zip(res, ossl):
        c, k = line.split(":")
        assert o.decapsulate(bytes.fromhex(c)) == bytes.fromhex(k), f"ML-KEM-{s}: OpenSSL decaps of our ciphertext differs"
    print(f"ML-KEM-{s}: {n} keys, {4 * n} cross-checks ok")


def check_dsa(zkgpu, rng, s, n):
    seeds = [rng.randbytes(32) for _ in range(n)]
    keys = [l.split(":") for l in cli(zkgpu, ["mldsa", "keygen", "--set", s], [x.hex() for x in seeds])]
    ossl = [DSA[s].from_seed_bytes(x) for x in seeds]
    for (pk, _), o in zip(keys, ossl):
        assert bytes.fromhex(pk) == o.public_key().public_bytes_raw(), f"ML-DSA-{s}: pk differs from OpenSSL"
    msgs = [rng.randbytes(rng.randrange(0, 200)) for _ in range(n)]
    ctxs = [rng.randbytes(rng.randrange(0, 30)) for _ in range(n)]
    # OpenSSL signs (hedged), we verify; a flipped signature bit must fail on both sides.
    sigs = [o.sign(m, c) for o, m, c in zip(ossl, msgs, ctxs)]
    bad = [s_[:100] + bytes([s_[100] ^ 2]) + s_[101:] for s_ in sigs]
    lines = [pk + ":" + m.hex() + ":" + c.hex() + ":" + g.hex() for (pk, _), m, c, g in zip(keys, msgs, ctxs, sigs)]
    lines += [pk + ":" + m.hex() + ":" + c.hex() + ":" + g.hex() for (pk, _), m, c, g in zip(keys, msgs, ctxs, bad)]
    res = cli(zkgpu, ["mldsa", "verify", "--set", s], lines, rc=1)  # the tampered half is rejected
    assert res == ["1"] * n + ["0"] * n, f"ML-DSA-{s}: our verify of OpenSSL signatures: {res}"
    # We sign (deterministic and hedged), OpenSSL verifies.
    lines = [sk + ":" + m.hex() + ":" + c.hex() + ":" + ("" if i % 2 == 0 else rng.randbytes(32).hex())
             for i, ((_, sk), m, c) in enumerate(zip(keys, msgs, ctxs))]
    ours = cli(zkgpu, ["mldsa", "sign", "--set", s], lines)
    for o, m, c, g in zip(ossl, msgs, ctxs, ours):
        o.public_key().verify(bytes.fromhex(g), m, c)  # raises InvalidSignature on failure
    print(f"ML-DSA-{s}: {n} keys, {3 * n} cross-checks ok")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("zkgpu")
    ap.add_argument("--items", type=int, default=16)
    a = ap.parse_args()
    rng = random.Random(int(os.environ.get("ZKGPU_TEST_SEED", "0x5eed2026"), 0))
    for s in KEM:
        check_kem(a.zkgpu, rng, s, a.items)
    for s in DSA:
        check_dsa(a.zkgpu, rng, s, a.items)


if __name__ == "__main__":
    main()
