"""WHIR polynomial commitments over BabyBear / BabyBear4 (include/zkgpu/whir.hpp) in the p3-whir
090b dialect: parameters, prove, verify. Field elements are canonical uint32; an extension element
(BabyBear4 = F[X]/(X^4 - 11)) is 4 words c0..c3. The proof is the bytes of zkgpu's proof file
(docs/whir-proof-format.md): the parameters, the claims and the proof."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Optional

import numpy as np

from . import _core
from ._arrays import backend as _backend, count, field
from ._errors import InvalidArgument


@dataclass(frozen=True)
class WhirParams:
    """WHIR's protocol parameters (zkgpu::whir::ProtocolParameters), with the library's defaults.

    first_folding_factor: None folds folding_factor variables every round; a number folds that
    many in the first round only (ConstantFromSecondRound). soundness: "ud" (unique decoding),
    "jb" (Johnson bound) or "cb" (capacity bound; rests on a refuted conjecture). rs_reduction:
    None for the default min(k0, 3). The verifier must choose these itself, never read them from
    a prover's proof."""

    num_variables: int
    security_level: int = 100
    pow_bits: int = 16
    folding_factor: int = 4
    first_folding_factor: Optional[int] = None
    soundness: str = "ud"
    starting_log_inv_rate: int = 1
    rs_reduction: Optional[int] = None
    enforce_pow_budget: bool = False

    def __post_init__(self):
        for name in ("num_variables", "security_level", "pow_bits", "folding_factor", "starting_log_inv_rate"):
            count(getattr(self, name), name)
        for name in ("first_folding_factor", "rs_reduction"):
            if getattr(self, name) is not None:
                count(getattr(self, name), name, 1 << 31)
        if self.soundness not in ("ud", "jb", "cb"):
            raise InvalidArgument(f'soundness {self.soundness!r} is not one of "ud", "jb", "cb"')
        if not isinstance(self.enforce_pow_budget, bool):
            raise InvalidArgument("enforce_pow_budget: expected a bool")

    def derive(self) -> dict:
        """What the parameters derive (WhirConfig::derive): rounds, queries, PoW bits, the proof's
        size bound; InvalidArgument with the reason for a configuration zkgpu rejects."""
        return _core.whir_derive(self)


class WhirProof(NamedTuple):
    """A proof: the proof file's bytes and the commitment root (8 canonical words) a verifier pins."""

    data: bytes
    root: np.ndarray

    def __bytes__(self) -> bytes:
        return self.data


class WhirVerdict(NamedTuple):
    """accepted, and why not (empty when accepted). True in a boolean context iff accepted."""

    accepted: bool
    reason: str

    def __bool__(self) -> bool:
        return self.accepted


def _claims(params: WhirParams, points, values):
    n = params.num_variables
    p = field(points, "points", ndim=(2, 3))
    if p.ndim == 2:
        p = p.reshape(1, *p.shape)
    v = field(values, "values", ndim=(1, 2))
    if v.ndim == 1:
        v = v.reshape(1, -1)
    c = p.shape[0]
    if p.shape[1:] != (n, 4):
        raise InvalidArgument(f"points: shape {p.shape}, expected (claims, {n}, 4) (BabyBear4 coordinates, x_0 first)")
    if v.shape != (c, 4):
        raise InvalidArgument(f"values: shape {v.shape}, expected ({c}, 4) (one BabyBear4 value per claim)")
    return np.ascontiguousarray(p), np.ascontiguousarray(v), c


def whir_prove(params: WhirParams, evals, points, values, backend: str = "auto", progress=None) -> WhirProof:
    """Commits to the 2^n evaluations and proves the claims f(points[c]) = values[c].

    points: (claims, n, 4) or (n, 4) canonical words; values: (claims, 4) or (4,). Values are taken
    as given (a false claim gives a proof the verifier rejects). The PoW is ground
    deterministically, so equal inputs give equal bytes on every backend. progress(done, total)
    hears (0, 1) before the prove and (1, 1) after it: the library's prover has no hook inside
    one prove, so a WHIR prove is one step."""
    ev = field(evals, "evals", ndim=(1,))
    p, v, c = _claims(params, points, values)
    if progress is not None:
        progress(0, 1)
    data, root = _core.whir_prove(params, ev, p, v, c, _backend(backend))
    if progress is not None:
        progress(1, 1)
    return WhirProof(data, root)


def whir_verify(params: WhirParams, points, values, proof, expected_root=None) -> WhirVerdict:
    """Verifies proof bytes (or a WhirProof) against the verifier's own parameters and claims and,
    unless expected_root is None, the commitment root it was given earlier. A malformed proof,
    another statement, another root or a failed check is a rejection with its reason, not an
    error; errors are for the caller's own arguments."""
    p, v, c = _claims(params, points, values)
    data = proof.data if isinstance(proof, WhirProof) else bytes(proof)
    root = None if expected_root is None else field(expected_root, "expected_root", ndim=(1,))
    accepted, reason = _core.whir_verify(params, p, v, c, root, data)
    return WhirVerdict(bool(accepted), reason)


def evaluate_multilinear(evals, point) -> np.ndarray:
    """The multilinear extension of 2^m evaluations at an (m, 4) BabyBear4 point (x_0 = the MSB
    of the table index): the value an honest claim states, (4,) canonical words."""
    return _core.evaluate_multilinear(field(evals, "evals", ndim=(1,)), field(point, "point", ndim=(2,)))
