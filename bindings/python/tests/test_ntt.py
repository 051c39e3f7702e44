"""BabyBear NTTs through Python: Plonky3's dft_batch layout against a naive DFT, round trips,
cosets, LDEs, and bad input."""

import numpy as np
import pytest

import zkgpu
from conftest import random_field

P = zkgpu.P
G27 = 440564289  # Plonky3's two_adic_generator(27) for BabyBear


def gen(k):
    return pow(G27, 1 << (27 - k), P)


def naive_dft(coeffs, shift=1):
    """E[i][c] = sum_j M[j][c] (shift * w^i)^j with w = two_adic_generator(k): Plonky3's dft_batch."""
    m = np.asarray(coeffs, dtype=object)
    n = m.shape[0]
    w = gen(n.bit_length() - 1)
    out = np.empty_like(m)
    for i in range(n):
        x = shift * pow(w, i, P) % P
        acc = 0
        for j in range(n - 1, -1, -1):
            acc = (acc * x + m[j]) % P
        out[i] = acc
    return out.astype(np.uint32)


@pytest.mark.parametrize("log_n,cols", [(0, 1), (1, 1), (3, 1), (5, 3), (6, 7)])
def test_forward_is_plonky3_dft_batch(rng, log_n, cols):
    m = random_field(rng, (1 << log_n, cols))
    got = zkgpu.ntt(m, backend="cpu")
    want = np.stack([naive_dft(m[:, c]) for c in range(cols)], axis=1)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.uint32 and got.shape == m.shape


def test_one_dimensional_input_keeps_its_shape(rng):
    v = random_field(rng, 16)
    got = zkgpu.ntt(v)
    assert got.shape == (16,)
    np.testing.assert_array_equal(got, naive_dft(v))


def test_coset_shift(rng):
    v = random_field(rng, 8)
    np.testing.assert_array_equal(zkgpu.ntt(v, shift=31), naive_dft(v, shift=31))


@pytest.mark.parametrize("log_n,cols", [(1, 1), (4, 2), (10, 3), (12, 1)])
def test_round_trip(rng, log_n, cols):
    m = random_field(rng, (1 << log_n, cols))
    np.testing.assert_array_equal(zkgpu.ntt(zkgpu.ntt(m), inverse=True), m)
    np.testing.assert_array_equal(zkgpu.ntt(zkgpu.ntt(m, inverse=True, shift=7), shift=7), m)


def test_input_is_not_modified(rng):
    m = random_field(rng, (8, 2))
    before = m.copy()
    zkgpu.ntt(m)
    np.testing.assert_array_equal(m, before)


def test_lde_from_coeffs_is_the_padded_dft(rng):
    c = random_field(rng, (8, 2))
    got = zkgpu.lde_from_coeffs(c, 2, shift=3)
    padded = np.zeros((32, 2), np.uint32)
    padded[:8] = c
    want = np.stack([naive_dft(padded[:, k], shift=3) for k in range(2)], axis=1)
    np.testing.assert_array_equal(got, want)


def test_coset_lde_interpolates_then_evaluates(rng):
    coeffs = random_field(rng, 16)
    evals = zkgpu.ntt(coeffs)
    got = zkgpu.coset_lde(evals, 1)  # default shift 31
    np.testing.assert_array_equal(got, zkgpu.lde_from_coeffs(coeffs, 1, shift=31))
    assert got.shape == (32,)


def test_other_integer_dtypes_and_lists_are_converted(rng):
    v = random_field(rng, 8)
    want = zkgpu.ntt(v)
    np.testing.assert_array_equal(zkgpu.ntt(v.astype(np.int64)), want)
    np.testing.assert_array_equal(zkgpu.ntt(v.tolist()), want)


def test_non_contiguous_input_is_copied_not_misread(rng):
    m = random_field(rng, (8, 4))
    view = m[:, ::2]  # strided columns
    assert not view.flags.c_contiguous
    np.testing.assert_array_equal(zkgpu.ntt(view), zkgpu.ntt(np.ascontiguousarray(view)))
    big = random_field(rng, (16, 2))
    np.testing.assert_array_equal(zkgpu.ntt(big[::2]), zkgpu.ntt(big[::2].copy()))


@pytest.mark.parametrize("bad", [np.zeros(8, np.float64), np.zeros(8, np.bool_), np.array(["a"] * 8)])
def test_wrong_dtype_is_refused(bad):
    with pytest.raises(zkgpu.InvalidArgument, match="dtype"):
        zkgpu.ntt(bad)


def test_values_at_or_above_p_are_refused():
    v = np.zeros(8, np.uint32)
    v[5] = P
    with pytest.raises(zkgpu.InvalidArgument, match=r"values\[5\] = 2013265921"):
        zkgpu.ntt(v)
    with pytest.raises(zkgpu.InvalidArgument, match="canonical"):
        zkgpu.ntt(np.array([0, -1, 0, 0]))
    with pytest.raises(zkgpu.InvalidArgument, match="shift"):
        zkgpu.ntt(np.zeros(4, np.uint32), shift=P)


def test_wrong_shapes_are_refused():
    with pytest.raises(zkgpu.InvalidArgument, match="power of two"):
        zkgpu.ntt(np.zeros(6, np.uint32))
    with pytest.raises(zkgpu.InvalidArgument, match="1-D or 2-D"):
        zkgpu.ntt(np.zeros((4, 2, 2), np.uint32))
    with pytest.raises(zkgpu.InvalidArgument, match="two-adicity|log_blowup"):
        zkgpu.lde_from_coeffs(np.zeros(4, np.uint32), 26)


def test_montgomery_round_trip(rng):
    v = random_field(rng, (5, 3))
    w = zkgpu.to_montgomery(v)
    np.testing.assert_array_equal(w.astype(np.uint64), (v.astype(np.uint64) << 32) % P)
    np.testing.assert_array_equal(zkgpu.from_montgomery(w), v)
    with pytest.raises(zkgpu.InvalidArgument):
        zkgpu.from_montgomery(np.array([P], np.uint32))


def test_stream_helpers_without_a_gpu():
    if zkgpu.cuda_usable():
        pytest.skip("a GPU is usable here")
    with pytest.raises((zkgpu.Unavailable, zkgpu.CudaError)):
        zkgpu._core.stream_synchronize(0)


def test_device_functions_refuse_host_arrays():
    with pytest.raises(zkgpu.InvalidArgument, match="not in GPU memory"):
        zkgpu.ntt_device(np.zeros(8, np.uint32))
    with pytest.raises(zkgpu.InvalidArgument, match="not a GPU array"):
        zkgpu.poseidon2_permute_device([[0] * 16])


def test_scalar_arguments_are_checked():
    v = np.zeros(4, np.uint32)
    for shift in (-1, 2.0, True, zkgpu.P):
        with pytest.raises(zkgpu.InvalidArgument, match="shift"):
            zkgpu.ntt(v, shift=shift)
    with pytest.raises(zkgpu.InvalidArgument, match="log_blowup"):
        zkgpu.lde_from_coeffs(v, -1)
    with pytest.raises(zkgpu.InvalidArgument, match="num_variables"):
        zkgpu.WhirParams(num_variables=-3)


def test_out_arrays_and_in_place(rng):
    m = random_field(rng, (16, 3))
    want = zkgpu.ntt(m)
    out = np.full_like(m, 0xFFFFFFFF)
    assert zkgpu.ntt(m, out=out) is out
    np.testing.assert_array_equal(out, want)
    inplace = m.copy()
    zkgpu.ntt(inplace, out=inplace)
    np.testing.assert_array_equal(inplace, want)
    lde = np.empty((64, 3), np.uint32)
    np.testing.assert_array_equal(zkgpu.coset_lde(m, 2, out=lde), zkgpu.coset_lde(m, 2))
    s = random_field(rng, (5, 24))
    want_s = zkgpu.poseidon2_permute(s)
    zkgpu.poseidon2_permute(s, out=s)
    np.testing.assert_array_equal(s, want_s)
    bad = m.copy()
    bad[2, 1] = zkgpu.P
    target = bad.copy()
    with pytest.raises(zkgpu.InvalidArgument):
        zkgpu.ntt(target, out=target)
    np.testing.assert_array_equal(target, bad)  # refused before anything was written
    for wrong in (np.empty((16, 2), np.uint32), np.empty((16, 3), np.int64), np.empty((3, 16), np.uint32).T):
        with pytest.raises(zkgpu.InvalidArgument, match="out"):
            zkgpu.ntt(m, out=wrong)
