// Ed25519 through the binding: RFC 8032 §7.1, the 1024 SUPERCOP answers, Wycheproof and the 1077
// edge cases labelled per rule set (tests/vectors/ed25519), on the CPU and through Auto; wrong
// lengths are per-item false; a mutated signature fails without touching its neighbours; packed
// batches give the item batches' verdicts; a batch large enough for the threaded array build.
mod common;

use common::{backends, hex, read_json, read_vector, Json};
use zkgpu::ed25519::{
    reads_items_in_place, release_buffers, verify_batch, verify_batch_into, verify_packed,
    verify_packed_into, verify_through_arrays, Item, Mode, PackedBatch,
};
use zkgpu::{Backend, ErrorKind};

const MODES: [Mode; 3] = [Mode::Openssl, Mode::Strict, Mode::Zip215];

struct Case {
    pk: Vec<u8>,
    sig: Vec<u8>,
    msg: Vec<u8>,
    name: String,
}

fn items(cases: &[Case]) -> Vec<Item<'_>> {
    cases
        .iter()
        .map(|c| Item {
            public_key: &c.pk,
            signature: &c.sig,
            message: &c.msg,
        })
        .collect()
}

fn label_column(m: Mode) -> &'static str {
    match m {
        Mode::Openssl => "go_openssl_boringssl_dalek_verify",
        Mode::Strict => "dalek_verify_strict",
        Mode::Zip215 => "zip215_zebra_consensus",
    }
}

// SUPERCOP sign.input lines: sk||pk : pk : msg : sig||msg :
fn supercop(file: &str) -> Vec<Case> {
    read_vector(file)
        .lines()
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(':').collect();
            Case {
                pk: hex(f[1]),
                msg: hex(f[2]),
                sig: hex(&f[3][..128]),
                name: format!("{file} line {}", i + 1),
            }
        })
        .collect()
}

/// Whether CUDA verification runs here: Backend::Cuda either works or says Unavailable, and
/// agrees with zkgpu::cuda_usable().
fn cuda_usable() -> bool {
    let c = Case {
        pk: vec![0; 32],
        sig: vec![0; 64],
        msg: vec![],
        name: String::new(),
    };
    match verify_batch(
        &items(std::slice::from_ref(&c)),
        Mode::Openssl,
        Backend::Cuda,
    ) {
        Ok(_) => {
            assert!(zkgpu::cuda_usable());
            true
        }
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::Unavailable, "{e}");
            assert!(!zkgpu::cuda_usable());
            false
        }
    }
}

#[test]
fn rfc8032_section_7_1_every_mode_and_backend() {
    let j = read_json("ed25519/rfc8032_7.1_ed25519.json");
    let mut cases: Vec<Case> = j
        .at("vectors")
        .arr()
        .iter()
        .map(|v| Case {
            pk: hex(v.at("public_key").str()),
            sig: hex(v.at("signature").str()),
            msg: hex(v.at("message").str()),
            name: v.at("name").str().to_string(),
        })
        .collect();
    assert_eq!(cases.len(), 5);
    for b in backends() {
        for m in MODES {
            assert_eq!(
                verify_batch(&items(&cases), m, b).unwrap(),
                vec![true; 5],
                "{m:?} {b:?}"
            );
        }
    }
    // A flipped message bit fails, and only that item.
    cases[1].msg[0] ^= 1;
    for m in MODES {
        assert_eq!(
            verify_batch(&items(&cases), m, Backend::Cpu).unwrap(),
            [true, false, true, true, true],
            "{m:?}"
        );
    }
}

#[test]
fn supercop_1024_and_dalek_known_answers() {
    for (file, n) in [
        ("ed25519/supercop_sign.input", 1024),
        ("ed25519/dalek_TESTVECTORS", 128),
    ] {
        let cases = supercop(file);
        assert_eq!(cases.len(), n);
        for b in backends() {
            for m in MODES {
                let got = verify_batch(&items(&cases), m, b).unwrap();
                if let Some(i) = got.iter().position(|v| !v) {
                    panic!("{} rejected ({m:?}, {b:?})", cases[i].name);
                }
            }
        }
    }
}

// Wycheproof expects strict RFC behaviour: Openssl and Strict agree with every verdict; Zip215
// disagrees on exactly one (the identity with the sign bit set as R). Some signatures have the
// wrong length: per-item false, not an error.
#[test]
fn wycheproof() {
    let j = read_json("ed25519/wycheproof_ed25519_test.json");
    let mut cases = Vec::new();
    let mut expect = Vec::new();
    for g in j.at("testGroups").arr() {
        let pk = hex(g.at("publicKey").at("pk").str());
        for t in g.at("tests").arr() {
            cases.push(Case {
                pk: pk.clone(),
                sig: hex(t.at("sig").str()),
                msg: hex(t.at("msg").str()),
                name: format!("tcId {}", t.at("tcId").u64()),
            });
            expect.push(t.at("result").str() == "valid");
        }
    }
    assert_eq!(cases.len(), 151);
    assert!(
        cases.iter().any(|c| c.sig.len() != 64),
        "the set has wrong-length signatures"
    );
    for b in backends() {
        for m in MODES {
            let got = verify_batch(&items(&cases), m, b).unwrap();
            let disagree: Vec<&Case> = (0..cases.len())
                .filter(|&i| got[i] != expect[i])
                .map(|i| &cases[i])
                .collect();
            if m == Mode::Zip215 {
                assert_eq!(
                    disagree.len(),
                    1,
                    "{b:?}: {:?}",
                    disagree.iter().map(|c| &c.name).collect::<Vec<_>>()
                );
                assert_eq!(
                    disagree[0].sig[..32],
                    hex("0100000000000000000000000000000000000000000000000000000000000080")
                );
            } else {
                assert!(
                    disagree.is_empty(),
                    "{m:?} {b:?}: {:?}",
                    disagree.iter().map(|c| &c.name).collect::<Vec<_>>()
                );
            }
        }
    }
}

#[test]
fn edge_cases_labelled_by_semantics() {
    let j = read_json("ed25519/edge_cases_labelled_by_semantics.json");
    let cases: Vec<(Case, &Json)> = j
        .arr()
        .iter()
        .map(|v| {
            let c = Case {
                pk: hex(v.at("pk").str()),
                sig: hex(v.at("sig").str()),
                msg: hex(v.at("msg").str()),
                name: format!("{} {}", v.at("set").str(), v.at("id").u64()),
            };
            (c, v.at("results"))
        })
        .collect();
    assert_eq!(cases.len(), 1077);
    let plain: Vec<Case> = cases.iter().map(|(c, _)| clone_case(c)).collect();
    for b in backends() {
        for m in MODES {
            let got = verify_batch(&items(&plain), m, b).unwrap();
            let wrong: Vec<&str> = cases
                .iter()
                .zip(&got)
                .filter(|((_, labels), g)| **g != (labels.at(label_column(m)) == &Json::Bool(true)))
                .map(|((c, _), _)| c.name.as_str())
                .collect();
            assert!(
                wrong.is_empty(),
                "{m:?} {b:?}: {} wrong: {wrong:?}",
                wrong.len()
            );
        }
    }
}

fn clone_case(c: &Case) -> Case {
    Case {
        pk: c.pk.clone(),
        sig: c.sig.clone(),
        msg: c.msg.clone(),
        name: c.name.clone(),
    }
}

// The 12 speccheck cases give each mode's row of docs/ed25519.md §1.1.
#[test]
fn speccheck_rows() {
    let j = read_json("ed25519/speccheck_cases.json");
    let cases: Vec<Case> = j
        .arr()
        .iter()
        .enumerate()
        .map(|(i, v)| Case {
            pk: hex(v.at("pub_key").str()),
            sig: hex(v.at("signature").str()),
            msg: hex(v.at("message").str()),
            name: format!("speccheck {i}"),
        })
        .collect();
    for (m, row) in [
        (Mode::Openssl, "VVVVXXXXXXXV"),
        (Mode::Strict, "XXXVXXXXXXXX"),
        (Mode::Zip215, "VVVVVVXXXVVV"),
    ] {
        let got: String = verify_batch(&items(&cases), m, Backend::Cpu)
            .unwrap()
            .iter()
            .map(|&v| if v { 'V' } else { 'X' })
            .collect();
        assert_eq!(got, row, "{m:?}");
    }
}

// Wrong-length keys and signatures (including empty ones) are invalid items: false, never an
// error, and their neighbours keep their verdicts.
#[test]
fn wrong_lengths_are_invalid_items_not_errors() {
    let good = supercop("ed25519/dalek_TESTVECTORS")
        .into_iter()
        .take(4)
        .collect::<Vec<_>>();
    let mut cases = Vec::new();
    for (i, c) in good.iter().enumerate() {
        cases.push(clone_case(c));
        let mut bad = clone_case(c);
        match i {
            0 => bad.pk.truncate(31),
            1 => bad.sig.push(0),
            2 => bad.pk.clear(),
            _ => bad.sig.clear(),
        }
        cases.push(bad);
    }
    let expect: Vec<bool> = (0..cases.len()).map(|i| i % 2 == 0).collect();
    for b in backends() {
        for m in MODES {
            assert_eq!(
                verify_batch(&items(&cases), m, b).unwrap(),
                expect,
                "{m:?} {b:?}"
            );
            assert_eq!(through_arrays(&items(&cases), m, b), expect, "{m:?} {b:?}");
        }
    }
}

// The other route into the library (the six arrays), as verify_batch_into takes it on a compiler
// whose slice references are not (pointer, length).
fn through_arrays(items: &[Item], m: Mode, b: Backend) -> Vec<bool> {
    let mut out = vec![7u8; items.len()];
    verify_through_arrays(items, m, b, &mut out).unwrap();
    out.into_iter().map(|v| v == 1).collect()
}

// The items reach the library as they are (zkgpu_ed25519_verify_batch_items) on this compiler:
// if a toolchain changes the slice layout, this says the binding lost its fast route.
#[test]
fn items_are_read_in_place() {
    assert!(reads_items_in_place());
    let cases = mutated_cases();
    for m in MODES {
        let want = verify_batch(&items(&cases), m, Backend::Cpu).unwrap();
        assert_eq!(
            through_arrays(&items(&cases), m, Backend::Cpu),
            want,
            "{m:?}"
        );
        assert_eq!(want.iter().filter(|&&v| !v).count(), 60, "{m:?}");
    }
}

#[test]
fn mutations_fail_alone() {
    let mut cases = supercop("ed25519/supercop_sign.input");
    cases.truncate(300);
    let mut rng = common::Rng::new(25519);
    let mut expect = vec![true; cases.len()];
    for i in (0..cases.len()).step_by(7) {
        let c = &mut cases[i];
        // Flip one bit of the key, the signature or a non-empty message.
        match rng.below(3) {
            0 => c.pk[rng.below(32) as usize] ^= 1 << rng.below(8),
            1 => c.sig[rng.below(64) as usize] ^= 1 << rng.below(8),
            _ if !c.msg.is_empty() => {
                let k = rng.below(c.msg.len() as u64) as usize;
                c.msg[k] ^= 1 << rng.below(8);
            }
            _ => c.sig[0] ^= 1,
        }
        expect[i] = false;
    }
    for b in backends() {
        assert_eq!(
            verify_batch(&items(&cases), Mode::Openssl, b).unwrap(),
            expect,
            "{b:?}"
        );
    }
}

#[test]
fn empty_batch_and_buffer_mismatch() {
    assert_eq!(
        verify_batch(&[], Mode::Openssl, Backend::Cpu).unwrap(),
        Vec::<bool>::new()
    );
    assert_eq!(
        verify_batch(&[], Mode::Zip215, Backend::Auto).unwrap(),
        Vec::<bool>::new()
    );
    let cases = supercop("ed25519/dalek_TESTVECTORS");
    let mut out = vec![0u8; 3];
    let e =
        verify_batch_into(&items(&cases[..4]), Mode::Openssl, Backend::Cpu, &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    let mut out = vec![7u8; 4];
    verify_batch_into(&items(&cases[..4]), Mode::Openssl, Backend::Cpu, &mut out).unwrap();
    assert_eq!(out, [1, 1, 1, 1]);
}

#[test]
fn cuda_without_a_gpu_is_unavailable_with_a_message() {
    if cuda_usable() {
        return; // covered by the backend loops above
    }
    let cases = supercop("ed25519/dalek_TESTVECTORS");
    let e = verify_batch(&items(&cases), Mode::Openssl, Backend::Cuda).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unavailable);
    assert!(!e.message().is_empty(), "the C side's message is carried");
    assert!(e.to_string().contains(e.message()));
}

/// Owned packed arrays of cases with well-formed keys and signatures.
struct Packed {
    keys: Vec<u8>,
    sigs: Vec<u8>,
    msgs: Vec<u8>,
    offsets: Vec<u64>,
}

impl Packed {
    fn of(cases: &[Case]) -> Packed {
        let mut p = Packed {
            keys: Vec::new(),
            sigs: Vec::new(),
            msgs: Vec::new(),
            offsets: vec![0],
        };
        for c in cases {
            p.keys.extend_from_slice(&c.pk);
            p.sigs.extend_from_slice(&c.sig);
            p.msgs.extend_from_slice(&c.msg);
            p.offsets.push(p.msgs.len() as u64);
        }
        p
    }
    fn batch(&self) -> PackedBatch<'_> {
        PackedBatch {
            public_keys: &self.keys,
            signatures: &self.sigs,
            messages: &self.msgs,
            message_offsets: &self.offsets,
        }
    }
}

// 300 SUPERCOP cases, every 5th mutated.
fn mutated_cases() -> Vec<Case> {
    let mut cases = supercop("ed25519/supercop_sign.input");
    cases.truncate(300);
    for i in (0..cases.len()).step_by(5) {
        cases[i].sig[i % 64] ^= 1;
    }
    cases
}

#[test]
fn packed_batches_equal_item_batches() {
    let cases = mutated_cases();
    let packed = Packed::of(&cases);
    for b in backends() {
        for m in MODES {
            let want = verify_batch(&items(&cases), m, b).unwrap();
            assert!(want.contains(&true) && want.contains(&false));
            assert_eq!(
                verify_packed(&packed.batch(), m, b).unwrap(),
                want,
                "{m:?} {b:?}"
            );
            let mut out = vec![9u8; cases.len()];
            verify_packed_into(&packed.batch(), m, b, &mut out).unwrap();
            assert!(out.iter().zip(&want).all(|(&o, &w)| o == u8::from(w)));
        }
    }
    assert!(
        verify_packed(&PackedBatch::default(), Mode::Openssl, Backend::Cpu)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn packed_batches_are_checked() {
    let cases = mutated_cases();
    let p = Packed::of(&cases[..4]);
    let invalid = |b: PackedBatch| {
        let e = verify_packed(&b, Mode::Openssl, Backend::Cpu).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
        e.message().to_string()
    };
    assert!(invalid(PackedBatch {
        public_keys: &p.keys[..33],
        ..p.batch()
    })
    .contains("public_keys"));
    assert!(invalid(PackedBatch {
        signatures: &p.sigs[..64],
        ..p.batch()
    })
    .contains("signatures"));
    assert!(invalid(PackedBatch {
        message_offsets: &p.offsets[..4],
        ..p.batch()
    })
    .contains("offsets"));
    assert!(invalid(PackedBatch {
        messages: &p.msgs[1..],
        ..p.batch()
    })
    .contains("messages has"));
    // A decreasing offset is the library's check, named by index.
    let mut bad = Packed::of(&cases[..4]);
    bad.offsets[2] = bad.offsets[3] + 1;
    assert!(invalid(bad.batch()).contains("message_offsets[3]"));
    let mut out = vec![0u8; 3];
    let e = verify_packed_into(&p.batch(), Mode::Openssl, Backend::Cpu, &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
}

// 2^16 + 5 items: the pointer arrays are written on several threads (from 2^16 items), into a
// kept buffer that a smaller batch then reuses; every verdict is still the item's own.
#[test]
fn large_batches_take_the_threaded_path() {
    let base = mutated_cases();
    let n = (1 << 16) + 5;
    let views = items(&base);
    let big: Vec<Item> = (0..n).map(|i| views[i % views.len()]).collect();
    let want: Vec<bool> = verify_batch(&items(&base), Mode::Openssl, Backend::Cpu).unwrap();
    for b in backends() {
        let got = through_arrays(&big, Mode::Openssl, b);
        assert!((0..n).all(|i| got[i] == want[i % base.len()]), "{b:?}");
        let small = through_arrays(&big[..1000], Mode::Openssl, b);
        assert_eq!(small[..], got[..1000]);
        assert_eq!(verify_batch(&big, Mode::Openssl, b).unwrap(), got, "{b:?}");
    }
    release_buffers();
    assert_eq!(
        through_arrays(&big[..7], Mode::Openssl, Backend::Cpu),
        want[..7]
    );
}
