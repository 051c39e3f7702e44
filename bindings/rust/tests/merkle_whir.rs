// Merkle trees and WHIR through the binding: the set-B (WHIR constants) Merkle known answers of
// tests/vectors/poseidon2, openings that verify and tampered ones that do not; WHIR prove ->
// verify with true claims (multilinear values computed here over BabyBear4), and rejections of
// a corrupted, truncated or foreign proof, a false claim and a wrong root; bad shapes as errors.
mod common;

use common::{backends, read_json, Rng};
use zkgpu::babybear::{Poseidon2Constants, Repr, P};
use zkgpu::merkle::{self, MerkleTree};
use zkgpu::whir::{self, Claim, Ext4, Folding, Params, Verdict};
use zkgpu::{Backend, ErrorKind};

fn digests(j: &common::Json) -> Vec<[u32; 8]> {
    j.arr()
        .iter()
        .map(|d| d.u32s().try_into().expect("8 words"))
        .collect()
}

#[test]
fn merkle_known_answers_set_b() {
    let j = read_json("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
    let v = j.at("merkle_base_matrix_8x2");
    let matrix: Vec<u32> = v.at("rows").arr().iter().flat_map(|r| r.u32s()).collect();
    let root: [u32; 8] = v.at("root").u32s().try_into().unwrap();
    let leaves = digests(v.at("leaf_digests"));
    for b in backends() {
        for repr in [Repr::Canonical, Repr::Montgomery] {
            let words: Vec<u32> = matrix.iter().map(|&x| repr.encode(x)).collect();
            let tree = MerkleTree::build(&words, 2, Poseidon2Constants::Whir, repr, b).unwrap();
            assert_eq!((tree.rows(), tree.cols(), tree.depth()), (8, 2, 3));
            let dec = |d: [u32; 8]| d.map(|w| repr.decode(w));
            assert_eq!(dec(tree.root().unwrap()), root, "{repr:?} {b:?}");
            let nodes = tree.nodes().unwrap();
            assert_eq!(nodes.len(), 15);
            assert_eq!(
                nodes[..8].iter().map(|&d| dec(d)).collect::<Vec<_>>(),
                leaves
            );
            assert_eq!(dec(nodes[14]), root);

            let index = v.at("opening_index").u64() as usize;
            let op = tree.open(index).unwrap();
            assert_eq!(
                op.row.iter().map(|&w| repr.decode(w)).collect::<Vec<_>>(),
                v.at("opening_row").u32s()
            );
            assert_eq!(
                op.siblings.iter().map(|&d| dec(d)).collect::<Vec<_>>(),
                digests(v.at("opening_siblings"))
            );
            let r = tree.root().unwrap();
            assert!(merkle::verify(&r, 8, 2, index, &op, Poseidon2Constants::Whir, repr).unwrap());
        }
    }
    // The extension-matrix example: its flattened base rows commit to the stated root.
    let e = j.at("merkle_extension_matrix_4x2");
    let flat: Vec<u32> = e
        .at("rows_flattened")
        .arr()
        .iter()
        .flat_map(|r| r.u32s())
        .collect();
    let tree = MerkleTree::build(
        &flat,
        8,
        Poseidon2Constants::Whir,
        Repr::Canonical,
        Backend::Cpu,
    )
    .unwrap();
    assert_eq!(tree.root().unwrap().to_vec(), e.at("root").u32s());
}

#[test]
fn merkle_openings_verify_and_tampering_is_rejected() {
    let mut rng = Rng::new(11);
    let (rows, cols) = (64usize, 5usize);
    let m: Vec<u32> = (0..rows * cols)
        .map(|_| rng.below(u64::from(P)) as u32)
        .collect();
    let tree = MerkleTree::build(
        &m,
        cols,
        Poseidon2Constants::Plonky3,
        Repr::Canonical,
        Backend::Cpu,
    )
    .unwrap();
    let root = tree.root().unwrap();
    let c = Poseidon2Constants::Plonky3;
    for index in [0, 1, 33, 63] {
        let op = tree.open(index).unwrap();
        assert_eq!(op.row, m[index * cols..(index + 1) * cols]);
        assert!(merkle::verify(&root, rows, cols, index, &op, c, Repr::Canonical).unwrap());
        // Another index, row word, sibling, root or constant set: rejected, not an error.
        assert!(!merkle::verify(&root, rows, cols, index ^ 1, &op, c, Repr::Canonical).unwrap());
        let mut bad = op.clone();
        bad.row[2] = (bad.row[2] + 1) % P;
        assert!(!merkle::verify(&root, rows, cols, index, &bad, c, Repr::Canonical).unwrap());
        let mut bad = op.clone();
        bad.siblings[3][0] ^= 1;
        assert!(!merkle::verify(&root, rows, cols, index, &bad, c, Repr::Canonical).unwrap());
        let mut bad = op.clone();
        bad.siblings.pop();
        assert!(!merkle::verify(&root, rows, cols, index, &bad, c, Repr::Canonical).unwrap());
        let mut bad_root = root;
        bad_root[7] ^= 4;
        assert!(!merkle::verify(&bad_root, rows, cols, index, &op, c, Repr::Canonical).unwrap());
        assert!(!merkle::verify(
            &root,
            rows,
            cols,
            index,
            &op,
            Poseidon2Constants::Whir,
            Repr::Canonical
        )
        .unwrap());
        assert!(!merkle::verify(&root, rows, cols, rows + index, &op, c, Repr::Canonical).unwrap());
    }
    // The same tree on every backend.
    for b in backends() {
        let t = MerkleTree::build(&m, cols, c, Repr::Canonical, b).unwrap();
        assert_eq!(t.root().unwrap(), root, "{b:?}");
    }
    // Handles are Send + Sync (zkgpu.h: immutable, usable from several threads at once).
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|i| {
                s.spawn({
                    let t = &tree;
                    move || t.open(i * 7).unwrap()
                })
            })
            .collect();
        for (i, h) in hs.into_iter().enumerate() {
            assert_eq!(h.join().unwrap().row, m[i * 7 * cols..(i * 7 + 1) * cols]);
        }
    });
    let moved = std::thread::spawn(move || tree.root().unwrap())
        .join()
        .unwrap();
    assert_eq!(moved, root);
}

#[test]
fn merkle_bad_input_is_an_error() {
    let inv = |e: zkgpu::Error| assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    let c = Poseidon2Constants::Whir;
    inv(MerkleTree::build(&[1, 2, 3], 1, c, Repr::Canonical, Backend::Cpu).unwrap_err()); // 3 rows
    inv(MerkleTree::build(&[1, 2, 3, 4], 0, c, Repr::Canonical, Backend::Cpu).unwrap_err());
    inv(MerkleTree::build(&[1, 2, 3], 2, c, Repr::Canonical, Backend::Cpu).unwrap_err());
    inv(MerkleTree::build(&[], 1, c, Repr::Canonical, Backend::Cpu).unwrap_err());
    inv(MerkleTree::build(&[1, P], 1, c, Repr::Canonical, Backend::Cpu).unwrap_err()); // word >= p
    let t = MerkleTree::build(&[1, 2, 3, 4], 2, c, Repr::Canonical, Backend::Cpu).unwrap();
    inv(t.open(2).unwrap_err());
    let mut op = t.open(1).unwrap();
    op.row.push(0);
    inv(merkle::verify(&t.root().unwrap(), 2, 2, 1, &op, c, Repr::Canonical).unwrap_err());
}

// ---- WHIR ---------------------------------------------------------------------------------------

// BabyBear4 = F[X]/(X^4 - 11), canonical words.
fn fmul(a: u32, b: u32) -> u32 {
    (u64::from(a) * u64::from(b) % u64::from(P)) as u32
}
fn fadd(a: u32, b: u32) -> u32 {
    ((u64::from(a) + u64::from(b)) % u64::from(P)) as u32
}
fn fsub(a: u32, b: u32) -> u32 {
    fadd(a, P - b)
}
fn emul(a: Ext4, b: Ext4) -> Ext4 {
    let mut c = [0u32; 4];
    for i in 0..4 {
        for j in 0..4 {
            let t = fmul(a[i], b[j]);
            if i + j < 4 {
                c[i + j] = fadd(c[i + j], t);
            } else {
                c[i + j - 4] = fadd(c[i + j - 4], fmul(11, t));
            }
        }
    }
    c
}
/// The multilinear extension of `table` (2^n base values) at `point` (x_0 = the index's MSB).
fn evaluate_multilinear(table: &[u32], point: &[Ext4]) -> Ext4 {
    let mut cur: Vec<Ext4> = table.iter().map(|&v| [v, 0, 0, 0]).collect();
    for x in point {
        let half = cur.len() / 2;
        // f(x, rest) = f(0, rest) + x * (f(1, rest) - f(0, rest)); the MSB splits the table in halves.
        cur = (0..half)
            .map(|i| {
                let (lo, hi) = (cur[i], cur[half + i]);
                let d = [0, 1, 2, 3].map(|k| fsub(hi[k], lo[k]));
                let xd = emul(*x, d);
                [0, 1, 2, 3].map(|k| fadd(lo[k], xd[k]))
            })
            .collect();
    }
    cur[0]
}

fn test_params(n: u32) -> Params {
    let mut p = Params::new(n).unwrap();
    // Small and quick: 80 bits of security with a 10-bit PoW budget.
    p.security_level = 80;
    p.pow_bits = 10;
    p.folding = Folding::Constant(2);
    p
}

fn random_claims(rng: &mut Rng, evals: &[u32], n: u32, count: usize) -> Vec<Claim> {
    (0..count)
        .map(|_| {
            let point: Vec<Ext4> = (0..n)
                .map(|_| [0; 4].map(|_| rng.below(u64::from(P)) as u32))
                .collect();
            Claim {
                value: evaluate_multilinear(evals, &point),
                point,
            }
        })
        .collect()
}

#[test]
fn multilinear_helper_on_the_hypercube() {
    // A boolean point reads the table: the test's own evaluator checks out before it is trusted.
    let t: Vec<u32> = (0..16).map(|i| i * 3 + 1).collect();
    let at = |bits: [u32; 4]| evaluate_multilinear(&t, &bits.map(|b| [b, 0, 0, 0]));
    assert_eq!(at([0, 0, 0, 0]), [1, 0, 0, 0]);
    assert_eq!(at([1, 0, 1, 1]), [t[0b1011], 0, 0, 0]);
    assert_eq!(at([0, 1, 0, 0]), [t[0b0100], 0, 0, 0]);
}

#[test]
fn whir_prove_then_verify_and_rejections() {
    let n = 10;
    let params = test_params(n);
    let cfg = params.derive().unwrap();
    assert_eq!(cfg.num_evaluations, 1 << n);
    assert!(cfg.n_rounds >= 1);
    let mut rng = Rng::new(12);
    let evals: Vec<u32> = (0..1u32 << n)
        .map(|_| rng.below(u64::from(P)) as u32)
        .collect();
    let claims = random_claims(&mut rng, &evals, n, 2);

    let proof = whir::prove(&params, &evals, &claims, Repr::Canonical, Backend::Cpu).unwrap();
    assert!(
        proof.bytes.starts_with(b"ZKGPWHIR"),
        "the documented proof-file magic"
    );
    assert!(proof.bytes.len() as u64 <= params.max_proof_size(claims.len()).unwrap());
    let ok = |v: Verdict| assert_eq!(v, Verdict::Accepted);
    ok(whir::verify(
        &params,
        &claims,
        Some(&proof.root),
        &proof.bytes,
        Repr::Canonical,
    )
    .unwrap());
    ok(whir::verify(&params, &claims, None, &proof.bytes, Repr::Canonical).unwrap());

    // The root is the commitment of the matrix the prover committed to; it does not depend on
    // the claims, and equal inputs give equal bytes on every backend.
    for b in backends() {
        let again = whir::prove(&params, &evals, &claims, Repr::Canonical, b).unwrap();
        assert_eq!(again, proof, "{b:?}");
    }
    let other = whir::prove(&params, &evals, &claims[..1], Repr::Canonical, Backend::Cpu).unwrap();
    assert_eq!(other.root, proof.root);

    // Montgomery words: the same statement gives the same proof file and the root in Montgomery.
    let mont = |v: &[u32]| {
        v.iter()
            .map(|&x| Repr::Montgomery.encode(x))
            .collect::<Vec<u32>>()
    };
    let mclaims: Vec<Claim> = claims
        .iter()
        .map(|c| Claim {
            point: c
                .point
                .iter()
                .map(|e| mont(e).try_into().unwrap())
                .collect(),
            value: mont(&c.value).try_into().unwrap(),
        })
        .collect();
    let mproof = whir::prove(
        &params,
        &mont(&evals),
        &mclaims,
        Repr::Montgomery,
        Backend::Cpu,
    )
    .unwrap();
    assert_eq!(mproof.bytes, proof.bytes);
    assert_eq!(mproof.root.to_vec(), mont(&proof.root));
    ok(whir::verify(
        &params,
        &mclaims,
        Some(&mproof.root),
        &proof.bytes,
        Repr::Montgomery,
    )
    .unwrap());

    let rejected = |v: Verdict, what: &str| match v {
        Verdict::Rejected(reason) => assert!(!reason.is_empty(), "{what}: a reason is given"),
        Verdict::Accepted => panic!("{what} was accepted"),
    };
    // Corrupted bytes: a flipped byte at several places (header, middle, end).
    for at in [0, 9, 60, proof.bytes.len() / 2, proof.bytes.len() - 1] {
        let mut bad = proof.bytes.clone();
        bad[at] ^= 0x01;
        rejected(
            whir::verify(&params, &claims, Some(&proof.root), &bad, Repr::Canonical).unwrap(),
            &format!("byte {at}"),
        );
    }
    rejected(
        whir::verify(
            &params,
            &claims,
            Some(&proof.root),
            &proof.bytes[..proof.bytes.len() - 4],
            Repr::Canonical,
        )
        .unwrap(),
        "truncated",
    );
    let mut longer = proof.bytes.clone();
    longer.push(0);
    rejected(
        whir::verify(
            &params,
            &claims,
            Some(&proof.root),
            &longer,
            Repr::Canonical,
        )
        .unwrap(),
        "trailing byte",
    );
    rejected(
        whir::verify(&params, &claims, Some(&proof.root), &[], Repr::Canonical).unwrap(),
        "empty",
    );
    // A false claim, another root, other parameters.
    let mut false_claims = claims.clone();
    false_claims[1].value[0] = fadd(false_claims[1].value[0], 1);
    rejected(
        whir::verify(
            &params,
            &false_claims,
            Some(&proof.root),
            &proof.bytes,
            Repr::Canonical,
        )
        .unwrap(),
        "false claim",
    );
    // Proving a false claim: the prover either refuses (the sumcheck does not close) or writes
    // a proof the verifier rejects; never a proof that passes.
    match whir::prove(
        &params,
        &evals,
        &false_claims,
        Repr::Canonical,
        Backend::Cpu,
    ) {
        Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}"),
        Ok(fp) => rejected(
            whir::verify(
                &params,
                &false_claims,
                Some(&fp.root),
                &fp.bytes,
                Repr::Canonical,
            )
            .unwrap(),
            "proof of a false claim",
        ),
    }
    let mut root = proof.root;
    root[0] = fadd(root[0], 1);
    rejected(
        whir::verify(&params, &claims, Some(&root), &proof.bytes, Repr::Canonical).unwrap(),
        "other root",
    );
    let mut p2 = params;
    p2.security_level += 1;
    rejected(
        whir::verify(
            &p2,
            &claims,
            Some(&proof.root),
            &proof.bytes,
            Repr::Canonical,
        )
        .unwrap(),
        "other parameters",
    );
}

#[test]
fn whir_bad_input_is_an_error() {
    let inv = |e: zkgpu::Error| assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    let params = test_params(6);
    let mut rng = Rng::new(13);
    let evals: Vec<u32> = (0..64).map(|_| rng.below(u64::from(P)) as u32).collect();
    let claims = random_claims(&mut rng, &evals, 6, 1);
    inv(whir::prove(
        &params,
        &evals[..63],
        &claims,
        Repr::Canonical,
        Backend::Cpu,
    )
    .unwrap_err()); // not 2^n
    inv(whir::prove(&params, &evals, &[], Repr::Canonical, Backend::Cpu).unwrap_err()); // no claim
    let mut short = claims.clone();
    short[0].point.pop();
    inv(whir::prove(&params, &evals, &short, Repr::Canonical, Backend::Cpu).unwrap_err());
    inv(whir::verify(&params, &short, None, &[0; 10], Repr::Canonical).unwrap_err());
    let mut big = evals.clone();
    big[5] = P;
    inv(whir::prove(&params, &big, &claims, Repr::Canonical, Backend::Cpu).unwrap_err()); // word >= p
                                                                                          // Parameters zkgpu rejects, with a reason.
    let mut bad = params;
    bad.folding = Folding::Constant(0);
    let e = bad.derive().unwrap_err();
    inv(e.clone());
    assert!(!e.message().is_empty());
    inv(whir::prove(&bad, &evals, &claims, Repr::Canonical, Backend::Cpu).unwrap_err());
    inv(Params::new(0).unwrap().derive().unwrap_err()); // no variable
    let mut r = params;
    r.rs_reduction = Some(u32::MAX);
    inv(r.derive().unwrap_err());
}
