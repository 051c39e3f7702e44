// ML-KEM and ML-DSA through the binding: the Wycheproof files of tests/vectors/{mlkem,mldsa}
// (keygen from seed, encaps with injected m, decaps, deterministic and hedged signing from the
// seed, verification), round trips, per-item statuses that leave neighbours alone, and buffer
// sizes that do not match as errors.
mod common;

use common::{backends, hex, nth, read_json, to_hex, Json, Rng};
use zkgpu::{mldsa, mlkem, Backend, ErrorKind, ItemStatus};

const KEM_SETS: [(mlkem::Set, u32); 3] = [
    (mlkem::Set::MlKem512, 512),
    (mlkem::Set::MlKem768, 768),
    (mlkem::Set::MlKem1024, 1024),
];
const DSA_SETS: [(mldsa::Set, u32); 3] = [
    (mldsa::Set::MlDsa44, 44),
    (mldsa::Set::MlDsa65, 65),
    (mldsa::Set::MlDsa87, 87),
];

/// tests/vectors/{scheme}/wycheproof_{scheme}_{set}_{file}.json
fn wycheproof(scheme: &str, set: u32, file: &str) -> Json {
    read_json(&format!("{scheme}/wycheproof_{scheme}_{set}_{file}.json"))
}

fn verify_item<'a>(
    public_key: &'a [u8],
    message: &'a [u8],
    context: &'a [u8],
    signature: &'a [u8],
) -> mldsa::VerifyItem<'a> {
    mldsa::VerifyItem {
        public_key,
        message,
        context,
        signature,
    }
}

fn tests_of(j: &Json) -> Vec<(&Json, &Json)> {
    j.at("testGroups")
        .arr()
        .iter()
        .flat_map(|g| g.at("tests").arr().iter().map(move |t| (g, t)))
        .collect()
}

#[test]
fn mlkem_sizes() {
    let s = mlkem::Set::MlKem768.sizes();
    assert_eq!(
        (s.encapsulation_key, s.decapsulation_key, s.ciphertext),
        (1184, 2400, 1088)
    );
    assert_eq!((s.seed, s.message, s.shared_key), (64, 32, 32));
    assert_eq!(mlkem::Set::MlKem512.sizes().ciphertext, 768);
    assert_eq!(mlkem::Set::MlKem1024.sizes().encapsulation_key, 1568);
}

#[test]
fn mlkem_keygen_from_seed_known_answers() {
    for (set, name) in KEM_SETS {
        let j = wycheproof("mlkem", name, "keygen_seed_test");
        let tests = tests_of(&j);
        assert_eq!(tests.len(), 100);
        let seeds: Vec<u8> = tests
            .iter()
            .flat_map(|(_, t)| hex(t.at("seed").str()))
            .collect();
        let s = set.sizes();
        for b in backends() {
            let kp = mlkem::keygen_batch(set, &seeds, b).unwrap();
            for (i, (_, t)) in tests.iter().enumerate() {
                let ek = nth(&kp.encapsulation_keys, s.encapsulation_key, i);
                let dk = nth(&kp.decapsulation_keys, s.decapsulation_key, i);
                assert_eq!(
                    to_hex(ek),
                    t.at("ek").str(),
                    "{name} tcId {} {b:?}",
                    t.at("tcId").u64()
                );
                assert_eq!(
                    to_hex(dk),
                    t.at("dk").str(),
                    "{name} tcId {}",
                    t.at("tcId").u64()
                );
            }
        }
    }
}

#[test]
fn mlkem_encaps_known_answers() {
    for (set, name) in KEM_SETS {
        let j = wycheproof("mlkem", name, "encaps_test");
        let s = set.sizes();
        let (mut ek, mut m, mut want) = (Vec::new(), Vec::new(), Vec::new());
        let mut wrong_length = 0;
        for (_, t) in tests_of(&j) {
            let (e, mm) = (hex(t.at("ek").str()), hex(t.at("m").str()));
            let valid = t.at("result").str() == "valid";
            if e.len() != s.encapsulation_key || mm.len() != s.message {
                // A packed batch cannot hold it: the whole call is refused.
                assert!(!valid);
                let err = mlkem::encaps_batch(set, &e, &mm, Backend::Cpu).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::InvalidArgument);
                wrong_length += 1;
                continue;
            }
            ek.extend(e);
            m.extend(mm);
            want.push((
                valid,
                t.at("c").str().to_string(),
                t.at("K").str().to_string(),
            ));
        }
        assert!(
            want.iter().any(|w| !w.0),
            "{name}: the file has keys that fail the modulus check"
        );
        assert!(wrong_length > 0, "{name}: the file has wrong-length keys");
        for b in backends() {
            let r = mlkem::encaps_batch(set, &ek, &m, b).unwrap();
            for (i, (valid, c, k)) in want.iter().enumerate() {
                let ct = nth(&r.ciphertexts, s.ciphertext, i);
                let key = nth(&r.shared_keys, s.shared_key, i);
                if *valid {
                    assert_eq!(r.status[i], ItemStatus::Ok, "{name} item {i}");
                    assert_eq!(
                        (to_hex(ct), to_hex(key)),
                        (c.clone(), k.clone()),
                        "{name} item {i} {b:?}"
                    );
                } else {
                    assert_eq!(r.status[i], ItemStatus::InvalidInput, "{name} item {i}");
                    assert!(
                        ct.iter().chain(key).all(|&x| x == 0),
                        "a rejected item's outputs are zeroed"
                    );
                }
            }
        }
    }
}

#[test]
fn mlkem_seed_then_decaps_known_answers() {
    for (set, name) in KEM_SETS {
        let j = wycheproof("mlkem", name, "test");
        let s = set.sizes();
        let (mut seeds, mut cts, mut want) = (Vec::new(), Vec::new(), Vec::new());
        for (_, t) in tests_of(&j) {
            let (seed, c) = (hex(t.at("seed").str()), hex(t.at("c").str()));
            let valid = t.at("result").str() == "valid";
            if seed.len() != s.seed || c.len() != s.ciphertext {
                assert!(!valid, "{name} tcId {}", t.at("tcId").u64());
                continue;
            }
            seeds.extend(seed);
            cts.extend(c);
            want.push((valid, t.at("K").str().to_string()));
        }
        let kp = mlkem::keygen_batch(set, &seeds, Backend::Cpu).unwrap();
        for b in backends() {
            let r = mlkem::decaps_batch(set, &kp.decapsulation_keys, &cts, b).unwrap();
            for (i, (valid, k)) in want.iter().enumerate() {
                // Every same-length ciphertext decapsulates (implicit rejection gives a key too).
                assert!(*valid, "{name}: a same-length case labelled invalid");
                assert_eq!(r.status[i], ItemStatus::Ok);
                assert_eq!(
                    to_hex(nth(&r.shared_keys, s.shared_key, i)),
                    *k,
                    "{name} item {i} {b:?}"
                );
            }
        }
    }
}

#[test]
fn mlkem_round_trip_implicit_rejection_and_bad_dk() {
    let mut rng = Rng::new(203);
    for (set, _) in KEM_SETS {
        let s = set.sizes();
        let n = 9;
        let kp = mlkem::keygen_batch(set, &rng.bytes(n * 64), Backend::Cpu).unwrap();
        let enc = mlkem::encaps_random_batch(set, &kp.encapsulation_keys, Backend::Auto).unwrap();
        assert!(enc.status.iter().all(|&st| st == ItemStatus::Ok));
        let mut cts = enc.ciphertexts.clone();
        cts[3 * s.ciphertext + 10] ^= 1; // item 3: implicit rejection
        let mut dks = kp.decapsulation_keys.clone();
        // Item 5: corrupt the stored H(ek) (the 32 bytes before z at the end of dk).
        dks[5 * s.decapsulation_key + s.decapsulation_key - 40] ^= 1;
        let dec = mlkem::decaps_batch(set, &dks, &cts, Backend::Cpu).unwrap();
        for i in 0..n {
            let k1 = nth(&enc.shared_keys, s.shared_key, i);
            let k2 = nth(&dec.shared_keys, s.shared_key, i);
            match i {
                3 => {
                    assert_eq!(
                        dec.status[i],
                        ItemStatus::Ok,
                        "implicit rejection is not an error"
                    );
                    assert_ne!(k1, k2);
                }
                5 => assert_eq!(dec.status[i], ItemStatus::InvalidInput),
                _ => {
                    assert_eq!(dec.status[i], ItemStatus::Ok);
                    assert_eq!(k1, k2, "item {i}");
                }
            }
        }
        // Two random encapsulations differ.
        let again = mlkem::encaps_random_batch(set, &kp.encapsulation_keys, Backend::Cpu).unwrap();
        assert_ne!(again.ciphertexts, enc.ciphertexts);
        // Buffer sizes that do not match are errors of the call.
        let inv = |e: zkgpu::Error| assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
        inv(mlkem::keygen_batch(set, &[0; 63], Backend::Cpu).unwrap_err());
        inv(mlkem::encaps_batch(set, &kp.encapsulation_keys, &[0; 32], Backend::Cpu).unwrap_err());
        inv(mlkem::decaps_batch(
            set,
            &kp.decapsulation_keys,
            &cts[..s.ciphertext],
            Backend::Cpu,
        )
        .unwrap_err());
        inv(mlkem::decaps_batch(set, &kp.decapsulation_keys[1..], &cts, Backend::Cpu).unwrap_err());
        // No items: a valid empty batch.
        assert!(mlkem::keygen_batch(set, &[], Backend::Cpu)
            .unwrap()
            .encapsulation_keys
            .is_empty());
    }
}

// ---- ML-DSA -------------------------------------------------------------------------------------

#[test]
fn mldsa_sign_from_seed_known_answers() {
    for (set, name) in DSA_SETS {
        let j = wycheproof("mldsa", name, "sign_seed_test");
        let s = set.sizes();
        let mut seen = 0;
        for g in j.at("testGroups").arr() {
            let seed = hex(g.at("privateSeed").str());
            let tests = g.at("tests").arr();
            seen += tests.len();
            if seed.len() != s.seed {
                // No key to sign with: every test of the group is invalid. The packed keygen reads
                // an empty seed as no item and refuses a partial one.
                assert!(tests.iter().all(|t| t.at("result").str() == "invalid"));
                match mldsa::keygen_batch(set, &seed, Backend::Cpu) {
                    Ok(kp) => assert!(seed.is_empty() && kp.public_keys.is_empty()),
                    Err(e) => assert_eq!(e.kind(), ErrorKind::InvalidArgument),
                }
                continue;
            }
            let kp = mldsa::keygen_batch(set, &seed, Backend::Cpu).unwrap();
            if let Some(pk) = g.get("publicKey") {
                assert_eq!(to_hex(&kp.public_keys), pk.str(), "{name}");
            }
            let data: Vec<_> = tests
                .iter()
                .map(|t| {
                    let field = |k: &str| t.get(k).map(|v| hex(v.str()));
                    (
                        t,
                        field("msg"),
                        field("mu"),
                        field("ctx").unwrap_or_default(),
                        field("rnd").unwrap_or_default(),
                    )
                })
                .collect();
            // Messages and external-mu items go in two batches (external_mu is per call).
            for external in [false, true] {
                let sel: Vec<_> = data
                    .iter()
                    .filter(|d| {
                        if external {
                            d.1.is_none()
                        } else {
                            d.1.is_some()
                        }
                    })
                    .collect();
                let items: Vec<mldsa::SignItem> = sel
                    .iter()
                    .map(|d| mldsa::SignItem {
                        secret_key: &kp.secret_keys,
                        message: if external {
                            d.2.as_deref().unwrap()
                        } else {
                            d.1.as_deref().unwrap()
                        },
                        context: &d.3,
                        rnd: &d.4,
                    })
                    .collect();
                for b in backends() {
                    let r = mldsa::sign_batch(set, &items, external, b).unwrap();
                    let mut verify_items = Vec::new();
                    for (i, d) in sel.iter().enumerate() {
                        let t = d.0;
                        let valid = t.at("result").str() == "valid";
                        let id = t.at("tcId").u64();
                        if !valid {
                            assert_eq!(r.status[i], ItemStatus::InvalidInput, "{name} tcId {id}");
                            assert!(r.signature(i).iter().all(|&x| x == 0));
                            continue;
                        }
                        assert_eq!(r.status[i], ItemStatus::Ok, "{name} tcId {id}");
                        assert_eq!(
                            to_hex(r.signature(i)),
                            t.at("sig").str(),
                            "{name} tcId {id} {b:?}"
                        );
                        verify_items.push(verify_item(
                            &kp.public_keys,
                            items[i].message,
                            items[i].context,
                            r.signature(i),
                        ));
                    }
                    let ok = mldsa::verify_batch(set, &verify_items, external, b).unwrap();
                    assert!(
                        ok.iter().all(|&v| v),
                        "{name}: every signature made verifies"
                    );
                }
            }
        }
        assert_eq!(seen as u64, j.at("numberOfTests").u64());
    }
}

#[test]
fn mldsa_verify_known_answers() {
    for (set, name) in DSA_SETS {
        let j = wycheproof("mldsa", name, "verify_test");
        let cases: Vec<_> = tests_of(&j)
            .into_iter()
            .map(|(g, t)| {
                let ctx = t.get("ctx").map(|v| hex(v.str())).unwrap_or_default();
                (
                    hex(g.at("publicKey").str()),
                    hex(t.at("msg").str()),
                    ctx,
                    hex(t.at("sig").str()),
                    t,
                )
            })
            .collect();
        assert_eq!(cases.len() as u64, j.at("numberOfTests").u64());
        let items: Vec<mldsa::VerifyItem> = cases
            .iter()
            .map(|c| verify_item(&c.0, &c.1, &c.2, &c.3))
            .collect();
        for b in backends() {
            let got = mldsa::verify_batch(set, &items, false, b).unwrap();
            for (c, g) in cases.iter().zip(&got) {
                assert_eq!(
                    *g,
                    c.4.at("result").str() == "valid",
                    "{name} tcId {} {b:?}",
                    c.4.at("tcId").u64()
                );
            }
        }
    }
}

#[test]
fn mldsa_round_trip_hedged_and_bad_items() {
    let mut rng = Rng::new(204);
    for (set, _) in DSA_SETS {
        let s = set.sizes();
        let n = 6;
        let kp = mldsa::keygen_batch(set, &rng.bytes(n * 32), Backend::Cpu).unwrap();
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| rng.bytes(i * 37)).collect();
        let rnd = rng.bytes(32);
        let long_ctx = vec![1u8; 256];
        let sk = |i: usize| nth(&kp.secret_keys, s.secret_key, i);
        let pk = |i: usize| nth(&kp.public_keys, s.public_key, i);
        let items: Vec<mldsa::SignItem> = (0..n)
            .map(|i| mldsa::SignItem {
                secret_key: if i == 4 { &sk(i)[1..] } else { sk(i) }, // item 4: wrong key length
                message: &msgs[i],
                context: if i == 2 { &long_ctx } else { b"ctx" }, // item 2: context over 255
                rnd: if i % 2 == 1 { &rnd } else { &[] },         // odd items hedged
            })
            .collect();
        let r = mldsa::sign_batch(set, &items, false, Backend::Auto).unwrap();
        for i in 0..n {
            let want = if i == 2 || i == 4 {
                ItemStatus::InvalidInput
            } else {
                ItemStatus::Ok
            };
            assert_eq!(r.status[i], want, "item {i}");
        }
        // Deterministic signing repeats itself; a different rnd changes a hedged signature.
        let again = mldsa::sign_batch(set, &items, false, Backend::Cpu).unwrap();
        assert_eq!(again.signature(0), r.signature(0));
        assert_eq!(again.signature(1), r.signature(1));
        let other_rnd = rng.bytes(32);
        let mut hedged = items[1];
        hedged.rnd = &other_rnd;
        assert_ne!(
            mldsa::sign_batch(set, &[hedged], false, Backend::Cpu)
                .unwrap()
                .signature(0),
            r.signature(1)
        );

        let mut bad_sig = r.signature(3).to_vec();
        bad_sig[5] ^= 1;
        // Two good signatures, then a flipped signature bit, another context, another key, a short
        // key and a context over 255 bytes, then a good one.
        let checks = [
            verify_item(pk(0), &msgs[0], b"ctx", r.signature(0)),
            verify_item(pk(1), &msgs[1], b"ctx", r.signature(1)),
            verify_item(pk(3), &msgs[3], b"ctx", &bad_sig),
            verify_item(pk(3), &msgs[3], b"ctX", r.signature(3)),
            verify_item(pk(0), &msgs[3], b"ctx", r.signature(3)),
            verify_item(&pk(3)[1..], &msgs[3], b"ctx", r.signature(3)),
            verify_item(pk(3), &msgs[3], &long_ctx, r.signature(3)),
            verify_item(pk(5), &msgs[5], b"ctx", r.signature(5)),
        ];
        for b in backends() {
            assert_eq!(
                mldsa::verify_batch(set, &checks, false, b).unwrap(),
                [true, true, false, false, false, false, false, true],
                "{set:?} {b:?}"
            );
        }
        assert_eq!(
            mldsa::verify_batch(set, &[], false, Backend::Cpu).unwrap(),
            Vec::<bool>::new()
        );
        assert_eq!(
            mldsa::keygen_batch(set, &[0; 33], Backend::Cpu)
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidArgument
        );
    }
}
