# Independent reference for tests/cli/msm_cli_test.cpp: affine BLS12-377 arithmetic with Python
# integers (no zkgpu code). Run: python3 gen_msm_cli_kat.py > msm_cli_kat.txt
import random
p = 0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001
r = 0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001
G = (0x008848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef,
     0x01914a69c5102eff1f674f5d30afeec4bd7fb348ca3e52d96d182ad44fb82305c2fe3d3634a9591afd82de55559c8ea6)

def add(P, Q):
    if P is None: return Q
    if Q is None: return P
    if P[0] == Q[0] and (P[1] + Q[1]) % p == 0: return None
    if P == Q: l = 3 * P[0] * P[0] * pow(2 * P[1], -1, p) % p
    else: l = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
    x = (l * l - P[0] - Q[0]) % p
    return (x, (l * (P[0] - x) - P[1]) % p)

def mul(k, P):
    R = None
    for bit in bin(k)[2:]:
        R = add(R, R)
        if bit == '1': R = add(R, P)
    return R

random.seed(377)
lines, acc = [], None
pts = [mul(2, G), mul(3, G), None, mul(random.randrange(r), G)]
pts.append((pts[3][0], p - pts[3][1]))  # -P
pts.append(pts[3])                        # repeated
scalars = [random.randrange(r), r - 1, 5, random.randrange(2**256), random.randrange(r), 0]
for i, (P, s) in enumerate(zip(pts, scalars)):
    sh = ("0x" if i % 2 else "") + ("%x" % s if i != 1 else "%080x" % s)  # one with leading zeros
    lines.append(("infinity" if P is None else "%x:%x" % P) + ":" + sh)
    acc = add(acc, mul(s % r, P) if P else None)
for l in lines: print(l)
print("# expected")
print("infinity" if acc is None else "%x:%x" % acc)
