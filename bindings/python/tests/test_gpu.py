"""The GPU paths (run on the H200 machine; skipped without CuPy or a usable GPU): GPU arrays used in
place through the device-pointer calls on their stream, and backend="cuda" for the host calls, each
compared byte for byte with the CPU backend on random inputs of several sizes, powers of two and
not, with output buffers poisoned first."""

import numpy as np
import pytest

import zkgpu
from conftest import random_field

POISON = 0xFFFFFFFF
SIZES = [(0, 1), (1, 3), (5, 1), (10, 7), (14, 2), (18, 1)]
STATES = [1, 3, 37, 1000, 4097]


class TestNttDeviceGpu:
    @pytest.mark.parametrize("log_n,cols", SIZES)
    def test_ntt_device_matches_cpu(self, cupy, rng, log_n, cols):
        m = random_field(rng, (1 << log_n, cols))
        for inverse in (False, True):
            want = zkgpu.ntt(m, inverse=inverse, shift=7, backend="cpu")
            d = cupy.asarray(m)
            zkgpu.ntt_device(d, inverse=inverse, shift=7)
            np.testing.assert_array_equal(cupy.asnumpy(d), want)
            # Montgomery words: the same transform, the words come back Montgomery.
            w = cupy.asarray(zkgpu.to_montgomery(m))
            zkgpu.ntt_device(w, inverse=inverse, shift=7)
            np.testing.assert_array_equal(zkgpu.from_montgomery(cupy.asnumpy(w)), want)

    def test_ntt_of_a_cupy_array_is_a_new_cupy_array(self, cupy, rng):
        m = random_field(rng, (1 << 12, 3))
        d = cupy.asarray(m)
        out = zkgpu.ntt(d)
        assert isinstance(out, cupy.ndarray) and out.dtype == cupy.uint32
        np.testing.assert_array_equal(cupy.asnumpy(out), zkgpu.ntt(m, backend="cpu"))
        np.testing.assert_array_equal(cupy.asnumpy(d), m)  # input untouched

    @pytest.mark.parametrize("log_n,cols,log_blowup", [(0, 1, 1), (3, 2, 2), (10, 5, 1), (14, 1, 3)])
    def test_ldes_device_match_cpu_into_poisoned_buffers(self, cupy, rng, log_n, cols, log_blowup):
        m = random_field(rng, (1 << log_n, cols))
        for dev_fn, host_fn, shift in ((zkgpu.coset_lde_device, zkgpu.coset_lde, 31),
                                       (zkgpu.lde_from_coeffs_device, zkgpu.lde_from_coeffs, 3)):
            out = cupy.full((1 << (log_n + log_blowup), cols), POISON, dtype=cupy.uint32)
            dev_fn(cupy.asarray(m), out, log_blowup, shift=shift)
            np.testing.assert_array_equal(cupy.asnumpy(out), host_fn(m, log_blowup, shift=shift, backend="cpu"))

    def test_cuda_backend_host_calls_match_cpu(self, rng):
        if not zkgpu.cuda_usable():
            pytest.skip("no usable GPU")
        for log_n, cols in SIZES:
            m = random_field(rng, (1 << log_n, cols))
            np.testing.assert_array_equal(zkgpu.ntt(m, backend="cuda"), zkgpu.ntt(m, backend="cpu"))
            np.testing.assert_array_equal(zkgpu.coset_lde(m, 1, backend="cuda"), zkgpu.coset_lde(m, 1, backend="cpu"))

    def test_runs_on_the_current_cupy_stream(self, cupy, rng):
        m = random_field(rng, (1 << 16, 2))
        want = zkgpu.ntt(m, backend="cpu")
        s = cupy.cuda.Stream(non_blocking=True)
        with s:
            d = cupy.asarray(m)
            zkgpu.ntt_device(d)
            got = cupy.asnumpy(d, stream=s)
        s.synchronize()
        np.testing.assert_array_equal(got, want)

    def test_explicit_stream_argument(self, cupy, rng):
        m = random_field(rng, (1 << 15, 1))
        d = cupy.asarray(m)
        cupy.cuda.get_current_stream().synchronize()
        s = cupy.cuda.Stream(non_blocking=True)
        zkgpu.ntt_device(d, stream=s)
        zkgpu.ntt_device(d, inverse=True, stream=s.ptr)
        s.synchronize()
        np.testing.assert_array_equal(cupy.asnumpy(d), m)

    def test_cuda_array_interface_only_object(self, cupy, rng):
        class CaiOnly:  # what Numba and older libraries hand over: no __dlpack__
            def __init__(self, a):
                self._a = a
                self.__cuda_array_interface__ = a.__cuda_array_interface__

        m = random_field(rng, (1 << 9, 2))
        d = cupy.asarray(m)
        zkgpu.ntt_device(CaiOnly(d))
        np.testing.assert_array_equal(cupy.asnumpy(d), zkgpu.ntt(m, backend="cpu"))

    def test_cuda_array_interface_on_another_stream_is_waited_for(self, cupy, rng):
        class CaiOnly:
            def __init__(self, a, stream):
                self._a = a
                cai = dict(a.__cuda_array_interface__)
                cai["stream"] = stream.ptr  # the producer's stream (v3)
                self.__cuda_array_interface__ = cai

        m = random_field(rng, (1 << 16, 1))
        producer, consumer = cupy.cuda.Stream(non_blocking=True), cupy.cuda.Stream(non_blocking=True)
        with producer:
            d = cupy.asarray(m)  # enqueued on producer; not waited for here
        zkgpu.ntt_device(CaiOnly(d, producer), stream=consumer)
        consumer.synchronize()
        np.testing.assert_array_equal(cupy.asnumpy(d), zkgpu.ntt(m, backend="cpu"))

    def test_bad_device_arrays(self, cupy, rng):
        d = cupy.asarray(random_field(rng, (16, 4)))
        with pytest.raises(zkgpu.InvalidArgument, match="contiguous"):
            zkgpu.ntt_device(d[:, ::2])
        with pytest.raises(zkgpu.InvalidArgument, match="uint32"):
            zkgpu.ntt_device(cupy.zeros(16, cupy.float32))
        with pytest.raises(zkgpu.InvalidArgument, match="not a GPU array|GPU memory"):
            zkgpu.ntt_device(np.zeros(16, np.uint32))
        with pytest.raises(zkgpu.InvalidArgument, match="power of two"):
            zkgpu.ntt_device(cupy.zeros(12, cupy.uint32))
        big = cupy.asarray(random_field(rng, 16))
        big[3] = zkgpu.P
        with pytest.raises(zkgpu.InvalidArgument, match="canonical"):
            zkgpu.ntt(big)
        with pytest.raises(zkgpu.InvalidArgument, match="out"):
            zkgpu.coset_lde_device(d, cupy.zeros((16, 4), cupy.uint32), 1)

    def test_array_on_another_device(self, cupy):
        if cupy.cuda.runtime.getDeviceCount() < 2:
            pytest.skip("one GPU")
        with cupy.cuda.Device(1):
            d = cupy.zeros(16, cupy.uint32)
        with pytest.raises(zkgpu.InvalidArgument, match="GPU 1"):
            zkgpu.ntt_device(d)


class TestPoseidon2MerkleGpu:
    @pytest.mark.parametrize("n", STATES)
    @pytest.mark.parametrize("width", [16, 24])
    def test_permute_device_matches_cpu(self, cupy, rng, n, width):
        s = random_field(rng, (n, width))
        for constants in ("plonky3", "whir"):
            want = zkgpu.poseidon2_permute(s, constants=constants, backend="cpu")
            d = cupy.asarray(zkgpu.to_montgomery(s))
            zkgpu.poseidon2_permute_device(d, constants=constants)
            np.testing.assert_array_equal(zkgpu.from_montgomery(cupy.asnumpy(d)), want)
            got = zkgpu.poseidon2_permute(cupy.asarray(s), constants=constants)
            np.testing.assert_array_equal(cupy.asnumpy(got), want)
            np.testing.assert_array_equal(zkgpu.poseidon2_permute(s, constants=constants, backend="cuda"), want)

    @pytest.mark.parametrize("rows,cols", [(1, 1), (2, 3), (1 << 10, 8), (1 << 13, 5)])
    def test_merkle_build_device_matches_cpu(self, cupy, rng, rows, cols):
        m = random_field(rng, (rows, cols))
        cpu = zkgpu.MerkleTree(m, constants="whir", backend="cpu")
        nodes = cupy.full((2 * rows - 1, 8), POISON, dtype=cupy.uint32)
        zkgpu.merkle_build_device(cupy.asarray(zkgpu.to_montgomery(m)), nodes, constants="whir")
        np.testing.assert_array_equal(zkgpu.from_montgomery(cupy.asnumpy(nodes)), cpu.nodes())
        gpu = zkgpu.MerkleTree(m, constants="whir", backend="cuda")
        np.testing.assert_array_equal(gpu.nodes(), cpu.nodes())


class TestTorchGpu:
    def test_torch_tensors_in_place(self, torch_cuda, rng):
        torch = torch_cuda
        m = random_field(rng, (1 << 12, 2))
        t = torch.from_numpy(m.view(np.int32)).cuda().view(torch.uint32)
        zkgpu.ntt_device(t)
        got = t.view(torch.int32).cpu().numpy().view(np.uint32)
        np.testing.assert_array_equal(got, zkgpu.ntt(m, backend="cpu"))
        s = random_field(rng, (100, 16))
        ts = torch.from_numpy(s.view(np.int32)).cuda().view(torch.uint32)
        out = zkgpu.poseidon2_permute(ts)
        np.testing.assert_array_equal(out.view(torch.int32).cpu().numpy().view(np.uint32),
                                      zkgpu.poseidon2_permute(s, backend="cpu"))


class TestJaxGpu:
    def test_jax_arrays(self, rng):
        if not zkgpu.cuda_usable():
            pytest.skip("no usable GPU")
        jax = pytest.importorskip("jax")
        if jax.default_backend() != "gpu":
            pytest.skip("JAX without a GPU backend")
        import jax.numpy as jnp

        m = random_field(rng, (1 << 12, 2))
        x = jnp.asarray(m)
        y = zkgpu.ntt(x)  # a new JAX array, synchronised before it is handed back
        np.testing.assert_array_equal(np.asarray(y), zkgpu.ntt(m, backend="cpu"))
        np.testing.assert_array_equal(np.asarray(x), m)


class TestBatchesGpu:
    def test_ed25519_cuda_matches_cpu(self):
        if not zkgpu.cuda_usable():
            pytest.skip("no usable GPU")
        from test_ed25519 import rfc_items

        pk, sig, msg = rfc_items()
        for n in (1, 5, 300, 4097):
            reps = n // len(pk) + 1
            p, s, m = (pk * reps)[:n], list((sig * reps)[:n]), (msg * reps)[:n]
            s[n // 2] = bytes(64)
            for mode in ("openssl", "strict", "zip215"):
                np.testing.assert_array_equal(zkgpu.ed25519_verify_batch(p, s, m, mode=mode, backend="cuda"),
                                              zkgpu.ed25519_verify_batch(p, s, m, mode=mode, backend="cpu"))

    def test_msm_device_and_cuda_match_cpu(self, cupy):
        from test_msm_pq import msm_kat

        pc, _, scalars, want_c, _ = msm_kat()
        assert zkgpu.msm(pc, scalars, backend="cuda") == want_c
        bases = zkgpu.MsmBases(pc)
        assert bases.msm(scalars, backend="cuda") == want_c
        assert bases.msm(scalars, backend="cuda") == want_c  # resident bases, second use
        d_points = cupy.asarray(bases.export())
        d_scalars = cupy.asarray(zkgpu._msm.scalars_array(scalars))
        assert zkgpu.msm_device(d_points, d_scalars) == want_c

    def test_pq_cuda_matches_cpu(self, rng):
        if not zkgpu.cuda_usable():
            pytest.skip("no usable GPU")
        for n in (1, 7, 300):
            seeds = rng.integers(0, 256, (n, 64), dtype=np.uint8)
            kc, kg = zkgpu.mlkem_keygen(seeds, backend="cpu"), zkgpu.mlkem_keygen(seeds, backend="cuda")
            np.testing.assert_array_equal(kc.encapsulation_keys, kg.encapsulation_keys)
            m = rng.integers(0, 256, (n, 32), dtype=np.uint8)
            ec = zkgpu.mlkem_encaps(kc.encapsulation_keys, m, backend="cpu")
            eg = zkgpu.mlkem_encaps(kc.encapsulation_keys, m, backend="cuda")
            np.testing.assert_array_equal(ec.ciphertexts, eg.ciphertexts)
            dk = zkgpu.mlkem_decaps(kc.decapsulation_keys, ec.ciphertexts, backend="cuda")
            np.testing.assert_array_equal(dk.shared_keys, ec.shared_keys)
            ds = zkgpu.mldsa_keygen(seeds[:, :32], backend="cpu")
            msgs = [bytes(rng.integers(0, 256, i % 50, dtype=np.uint8)) for i in range(n)]
            sc = zkgpu.mldsa_sign(ds.secret_keys, msgs, backend="cpu")
            sg = zkgpu.mldsa_sign(ds.secret_keys, msgs, backend="cuda")
            np.testing.assert_array_equal(sc.signatures, sg.signatures)
            assert zkgpu.mldsa_verify(ds.public_keys, msgs, sg.signatures, backend="cuda").all()

    def test_whir_cuda_proof_is_the_cpu_proof(self, rng):
        if not zkgpu.cuda_usable():
            pytest.skip("no usable GPU")
        params = zkgpu.WhirParams(num_variables=16, folding_factor=4, pow_bits=0, security_level=40)
        evals = random_field(rng, 1 << 16)
        point = random_field(rng, (16, 4))
        value = zkgpu.evaluate_multilinear(evals, point)
        cpu = zkgpu.whir_prove(params, evals, point, value, backend="cpu")
        gpu = zkgpu.whir_prove(params, evals, point, value, backend="cuda")
        assert gpu.data == cpu.data
        assert zkgpu.whir_verify(params, point, value, gpu, expected_root=cpu.root)
