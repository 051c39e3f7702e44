"""Poseidon2 known answers (Plonky3's tests, tests/vectors/poseidon2) and Merkle trees through Python."""

import numpy as np
import pytest

import zkgpu
from conftest import load_vectors, random_field


def test_plonky3_known_answers():
    kat = load_vectors("poseidon2/poseidon2_babybear_plonky3_kat.json")
    for v in kat["vectors"]:
        if "default" not in v["constants"]:
            continue
        # Plonky3's test builds its input with BabyBear::new_array, which reduces mod p (the
        # width-24 input holds a word above p).
        states = (np.array([v["input"]], dtype=np.uint64) % zkgpu.P).astype(np.uint32)
        got = zkgpu.poseidon2_permute(states, constants="plonky3", backend="cpu")
        np.testing.assert_array_equal(got[0], np.array(v["expected"], np.uint32), err_msg=v["name"])


def test_whir_set_derived_vectors():
    d = load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json")
    for v in d["permutation_w16_smallrng_seed1"]:
        got = zkgpu.poseidon2_permute(np.array([v["input"]], np.uint32), constants="whir")
        np.testing.assert_array_equal(got[0], np.array(v["output"], np.uint32))
    m = d["merkle_base_matrix_8x2"]
    tree = zkgpu.MerkleTree(np.array(m["rows"], np.uint32), constants="whir")
    np.testing.assert_array_equal(tree.root, np.array(m["root"], np.uint32))
    np.testing.assert_array_equal(tree.nodes()[:8], np.array(m["leaf_digests"], np.uint32))
    o = tree.open(m["opening_index"])
    np.testing.assert_array_equal(o.row, np.array(m["opening_row"], np.uint32))
    np.testing.assert_array_equal(o.siblings, np.array(m["opening_siblings"], np.uint32))
    e = d["merkle_extension_matrix_4x2"]
    flat = zkgpu.MerkleTree(np.array(e["rows_flattened"], np.uint32), constants="whir")
    np.testing.assert_array_equal(flat.root, np.array(e["root"], np.uint32))


@pytest.mark.parametrize("width", [16, 24])
def test_batch_is_row_by_row(rng, width):
    s = random_field(rng, (37, width))
    batch = zkgpu.poseidon2_permute(s)
    for i in (0, 17, 36):
        np.testing.assert_array_equal(batch[i], zkgpu.poseidon2_permute(s[i:i + 1])[0])
    assert not np.array_equal(zkgpu.poseidon2_permute(s, constants="whir"), batch)


def test_progress_in_sub_batches(rng, monkeypatch):
    from zkgpu import _progress

    monkeypatch.setattr(_progress, "SUB_BATCH", 10)
    s = random_field(rng, (25, 16))
    whole = zkgpu.poseidon2_permute(s)
    calls = []
    parts = zkgpu.poseidon2_permute(s, progress=lambda done, total: calls.append((done, total)))
    np.testing.assert_array_equal(parts, whole)
    assert calls == [(0, 25), (10, 25), (20, 25), (25, 25)]
    calls.clear()
    zkgpu.poseidon2_permute(s[:10], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(10, 10)]  # one call: no sub-batches at or below SUB_BATCH


def test_a_raising_callback_stops_the_batch(rng, monkeypatch):
    from zkgpu import _progress

    monkeypatch.setattr(_progress, "SUB_BATCH", 4)

    def stop(done, total):
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        zkgpu.poseidon2_permute(random_field(rng, (9, 16)), progress=stop)


def test_poseidon2_bad_input(rng):
    with pytest.raises(zkgpu.InvalidArgument, match=r"\(n, 16\) or \(n, 24\)"):
        zkgpu.poseidon2_permute(np.zeros((2, 8), np.uint32))
    with pytest.raises(zkgpu.InvalidArgument, match="constants"):
        zkgpu.poseidon2_permute(np.zeros((1, 16), np.uint32), constants="sha")
    with pytest.raises(zkgpu.InvalidArgument, match="field"):
        zkgpu.poseidon2_permute(np.zeros((1, 16), np.uint32), field="goldilocks")
    bad = np.zeros((2, 16), np.uint32)
    bad[1, 3] = zkgpu.P + 5
    with pytest.raises(zkgpu.InvalidArgument, match="canonical"):
        zkgpu.poseidon2_permute(bad)


@pytest.mark.parametrize("rows,cols", [(1, 1), (2, 3), (16, 8), (64, 20)])
def test_merkle_open_verify(rng, rows, cols):
    m = random_field(rng, (rows, cols))
    tree = zkgpu.MerkleTree(m, constants="whir")
    assert (tree.rows, tree.cols, tree.depth) == (rows, cols, rows.bit_length() - 1)
    assert tree.root.shape == (8,) and tree.root.dtype == np.uint32
    np.testing.assert_array_equal(tree.nodes()[-1], tree.root)
    assert tree.nodes().shape == (2 * rows - 1, 8)
    for i in {0, rows // 2, rows - 1}:
        o = tree.open(i)
        np.testing.assert_array_equal(o.row, m[i])
        assert o.siblings.shape == (tree.depth, 8)
        assert tree.verify(i, o)
        assert zkgpu.merkle_verify(tree.root, rows, cols, i, o.row, o.siblings, constants="whir")
        assert not zkgpu.merkle_verify(tree.root, rows, cols, i, o.row, o.siblings, constants="plonky3")
        tampered = o.row.copy()
        tampered[0] = (int(tampered[0]) + 1) % zkgpu.P
        assert not zkgpu.merkle_verify(tree.root, rows, cols, i, tampered, o.siblings, constants="whir")
        over = o.row.copy()
        over[0] = zkgpu.P  # not a field element: a rejection, not an error
        assert not zkgpu.merkle_verify(tree.root, rows, cols, i, over, o.siblings, constants="whir")


def test_merkle_root_matches_the_leaf_hash_for_one_row(rng):
    # One row, at most 8 columns: the root is the sponge of the row, i.e. the first 8 words of
    # the permutation of the row zero-padded to 16.
    row = random_field(rng, (1, 8))
    state = np.zeros((1, 16), np.uint32)
    state[0, :8] = row[0]
    np.testing.assert_array_equal(zkgpu.merkle_root(row), zkgpu.poseidon2_permute(state)[0, :8])


def test_merkle_bad_input(rng):
    with pytest.raises(zkgpu.InvalidArgument, match="power of two"):
        zkgpu.MerkleTree(np.zeros((3, 2), np.uint32))
    tree = zkgpu.MerkleTree(random_field(rng, (4, 2)))
    with pytest.raises(zkgpu.InvalidArgument):
        tree.open(4)
    with pytest.raises(zkgpu.InvalidArgument):
        tree.open(-1)
