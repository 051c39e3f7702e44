// BabyBear through the binding: the NTT and LDEs against a naive DFT written here over u32
// Montgomery arithmetic (the words Plonky3 stores), forward/inverse round trips, Poseidon2 known
// answers for both constant sets (tests/vectors/poseidon2) in both representations, and bad
// shapes, widths and words as errors.
mod common;

use common::{backends, read_json, Rng};
use zkgpu::babybear::{
    coset_lde, coset_ntt, lde_from_coeffs, ntt, poseidon2_permute, Direction, Poseidon2Constants,
    Repr, GENERATOR, P,
};
use zkgpu::{Backend, ErrorKind};

// ---- Montgomery arithmetic (R = 2^32), independent of the library ------------------------------

const P_PRIME: u32 = 2013265919; // -p^-1 mod 2^32

fn redc(t: u64) -> u32 {
    let m = (t as u32).wrapping_mul(P_PRIME);
    let u = ((t + u64::from(m) * u64::from(P)) >> 32) as u32;
    if u >= P {
        u - P
    } else {
        u
    }
}
fn mmul(a: u32, b: u32) -> u32 {
    redc(u64::from(a) * u64::from(b))
}
fn madd(a: u32, b: u32) -> u32 {
    let s = a + b; // < 2^32: both < p < 2^31
    if s >= P {
        s - P
    } else {
        s
    }
}
fn to_mont(x: u32) -> u32 {
    ((u64::from(x) << 32) % u64::from(P)) as u32
}
fn from_mont(w: u32) -> u32 {
    redc(u64::from(w))
}
fn mpow(mut b: u32, mut e: u64) -> u32 {
    let mut r = to_mont(1);
    while e > 0 {
        if e & 1 == 1 {
            r = mmul(r, b);
        }
        b = mmul(b, b);
        e >>= 1;
    }
    r
}
fn minv(a: u32) -> u32 {
    mpow(a, u64::from(P) - 2)
}
/// Plonky3's two_adic_generator(k): 31^((p-1)/2^k), in Montgomery form.
fn root(log_n: u32) -> u32 {
    mpow(to_mont(GENERATOR), (u64::from(P) - 1) >> log_n)
}

/// E[i][c] = sum_j M[j][c] * (shift * w^i)^j, all words Montgomery; `out_h` rows of output from
/// `m.len() / width` coefficient rows (out_h > rows: the zero-padded LDE).
fn naive_eval(m: &[u32], width: usize, out_h: usize, shift: u32) -> Vec<u32> {
    let rows = m.len() / width;
    let w = root(out_h.trailing_zeros());
    let mut out = vec![0u32; out_h * width];
    for i in 0..out_h {
        let x = mmul(shift, mpow(w, i as u64));
        let mut xj = to_mont(1);
        for j in 0..rows {
            for c in 0..width {
                out[i * width + c] = madd(out[i * width + c], mmul(m[j * width + c], xj));
            }
            xj = mmul(xj, x);
        }
    }
    out
}

/// The coefficients of evaluations over shift * H: c_j = (1/n) shift^-j sum_i E_i w^-ij.
fn naive_interpolate(e: &[u32], width: usize, shift: u32) -> Vec<u32> {
    let n = e.len() / width;
    let w_inv = minv(root(n.trailing_zeros()));
    let n_inv = minv(to_mont(n as u32));
    let s_inv = minv(shift);
    let mut out = vec![0u32; e.len()];
    for j in 0..n {
        let wj = mpow(w_inv, j as u64);
        let scale = mmul(n_inv, mpow(s_inv, j as u64));
        for c in 0..width {
            let mut acc = 0;
            let mut wij = to_mont(1);
            for i in 0..n {
                acc = madd(acc, mmul(e[i * width + c], wij));
                wij = mmul(wij, wj);
            }
            out[j * width + c] = mmul(acc, scale);
        }
    }
    out
}

fn random_words(rng: &mut Rng, n: usize) -> Vec<u32> {
    (0..n).map(|_| rng.below(u64::from(P)) as u32).collect()
}

fn decode(r: Repr, v: &[u32]) -> Vec<u32> {
    v.iter().map(|&w| r.decode(w)).collect()
}

#[test]
fn montgomery_helpers_agree_with_repr() {
    // The test's arithmetic and the crate's Repr conversion are independent; they must agree.
    let mut rng = Rng::new(1);
    for x in random_words(&mut rng, 1000)
        .into_iter()
        .chain([0, 1, P - 1])
    {
        assert_eq!(Repr::Montgomery.encode(x), to_mont(x));
        assert_eq!(Repr::Montgomery.decode(to_mont(x)), x);
        assert_eq!(from_mont(to_mont(x)), x);
    }
    // w has order exactly 2^27.
    let w = root(27);
    assert_eq!(mpow(w, 1 << 27), to_mont(1));
    assert_ne!(mpow(w, 1 << 26), to_mont(1));
}

#[test]
fn ntt_equals_naive_dft_plain_and_coset_both_reprs() {
    let mut rng = Rng::new(2);
    for (log_n, width) in [(0u32, 1usize), (1, 3), (3, 1), (4, 5), (6, 2), (8, 3)] {
        let h = 1usize << log_n;
        let coeffs_m = random_words(&mut rng, h * width);
        for shift_c in [1u32, GENERATOR, 7] {
            let shift_m = to_mont(shift_c);
            let want_m = naive_eval(&coeffs_m, width, h, shift_m);
            for b in backends() {
                // Montgomery: Plonky3's words in and out.
                let mut m = coeffs_m.clone();
                if shift_c == 1 {
                    ntt(&mut m, width, Direction::Forward, Repr::Montgomery, b).unwrap();
                } else {
                    coset_ntt(
                        &mut m,
                        width,
                        Direction::Forward,
                        shift_m,
                        Repr::Montgomery,
                        b,
                    )
                    .unwrap();
                }
                assert_eq!(
                    m, want_m,
                    "2^{log_n} x {width}, shift {shift_c}, {b:?}, Montgomery"
                );
                // Canonical: the same values as integers.
                let mut c = decode(Repr::Montgomery, &coeffs_m);
                coset_ntt(
                    &mut c,
                    width,
                    Direction::Forward,
                    shift_c,
                    Repr::Canonical,
                    b,
                )
                .unwrap();
                assert_eq!(
                    c,
                    decode(Repr::Montgomery, &want_m),
                    "2^{log_n} x {width}, shift {shift_c}, {b:?}, canonical"
                );
                // Inverse: the naive interpolation of the evaluations, and back to the input.
                let mut inv = want_m.clone();
                coset_ntt(
                    &mut inv,
                    width,
                    Direction::Inverse,
                    shift_m,
                    Repr::Montgomery,
                    b,
                )
                .unwrap();
                assert_eq!(inv, coeffs_m);
                if log_n <= 4 {
                    assert_eq!(
                        naive_interpolate(&want_m, width, shift_m),
                        coeffs_m,
                        "the test's own inverse"
                    );
                }
            }
        }
    }
}

#[test]
fn forward_inverse_round_trip_large() {
    let mut rng = Rng::new(3);
    for (log_n, width) in [(12u32, 3usize), (16, 2), (17, 1)] {
        let orig = random_words(&mut rng, (1 << log_n) * width);
        for repr in [Repr::Canonical, Repr::Montgomery] {
            for b in backends() {
                let mut m = orig.clone();
                ntt(&mut m, width, Direction::Forward, repr, b).unwrap();
                assert_ne!(m, orig);
                ntt(&mut m, width, Direction::Inverse, repr, b).unwrap();
                assert_eq!(m, orig, "2^{log_n} x {width} {repr:?} {b:?}");
            }
        }
        // Every backend gives the same words.
        let mut cpu = orig.clone();
        ntt(
            &mut cpu,
            width,
            Direction::Forward,
            Repr::Montgomery,
            Backend::Cpu,
        )
        .unwrap();
        let mut auto = orig.clone();
        ntt(
            &mut auto,
            width,
            Direction::Forward,
            Repr::Montgomery,
            Backend::Auto,
        )
        .unwrap();
        assert_eq!(cpu, auto);
    }
}

#[test]
fn coset_lde_and_lde_from_coeffs_equal_naive() {
    let mut rng = Rng::new(4);
    for (log_n, width, bits) in [(0u32, 2usize, 1u32), (2, 1, 2), (4, 3, 1), (5, 2, 3)] {
        let h = 1usize << log_n;
        let shift = to_mont(GENERATOR);
        let evals = random_words(&mut rng, h * width);
        let coeffs = naive_interpolate(&evals, width, to_mont(1));
        let want = naive_eval(&coeffs, width, h << bits, shift);
        for b in backends() {
            let got = coset_lde(&evals, width, bits, shift, Repr::Montgomery, b).unwrap();
            assert_eq!(got, want, "coset_lde 2^{log_n} x {width} << {bits} {b:?}");
            let got = lde_from_coeffs(&coeffs, width, bits, shift, Repr::Montgomery, b).unwrap();
            assert_eq!(
                got, want,
                "lde_from_coeffs 2^{log_n} x {width} << {bits} {b:?}"
            );
            // Canonical words give the canonical values.
            let got = coset_lde(
                &decode(Repr::Montgomery, &evals),
                width,
                bits,
                GENERATOR,
                Repr::Canonical,
                b,
            )
            .unwrap();
            assert_eq!(got, decode(Repr::Montgomery, &want));
        }
        // The LDE restricted to the original domain (shift 1, every 2^bits-th row) is the input.
        let plain = coset_lde(
            &evals,
            width,
            bits,
            to_mont(1),
            Repr::Montgomery,
            Backend::Cpu,
        )
        .unwrap();
        let sub: Vec<u32> = plain
            .chunks(width)
            .step_by(1 << bits)
            .flatten()
            .copied()
            .collect();
        assert_eq!(sub, evals);
    }
}

fn invalid(r: Result<(), zkgpu::Error>, what: &str) {
    assert_eq!(r.unwrap_err().kind(), ErrorKind::InvalidArgument, "{what}");
}

#[test]
fn bad_shapes_and_words_are_errors() {
    // Width 0, 12 % 5, height 3, height 0.
    for (len, width) in [(12, 0), (12, 5), (12, 4), (0, 1)] {
        let mut m = vec![1u32; len];
        let r = ntt(
            &mut m,
            width,
            Direction::Forward,
            Repr::Canonical,
            Backend::Cpu,
        );
        invalid(r, &format!("{len} words, width {width}"));
    }
    // A word >= p, and shifts 0 and >= p.
    let mut m = vec![1u32, 2, P, 4];
    let before = m.clone();
    for (repr, b) in [
        (Repr::Canonical, Backend::Cpu),
        (Repr::Montgomery, Backend::Auto),
    ] {
        invalid(ntt(&mut m, 1, Direction::Forward, repr, b), "a word >= p");
        assert_eq!(m, before, "an InvalidArgument call writes nothing");
    }
    let mut m = vec![1u32; 8];
    for shift in [0, P + 1] {
        let r = coset_ntt(
            &mut m,
            2,
            Direction::Forward,
            shift,
            Repr::Canonical,
            Backend::Cpu,
        );
        invalid(r, &format!("shift {shift}"));
    }
    let e = coset_lde(&[1, 2], 1, 27, 1, Repr::Canonical, Backend::Cpu).unwrap_err(); // 2^28 rows
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    assert!(!e.message().is_empty());
    let e = lde_from_coeffs(&[1, 2, 3], 2, 1, 1, Repr::Canonical, Backend::Cpu).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    let e = coset_lde(&[1, 2], 1, u32::MAX, 1, Repr::Canonical, Backend::Cpu).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
}

// ---- Poseidon2 ----------------------------------------------------------------------------------

/// (width, input, expected) canonical, from the vector files, for a constant set.
fn poseidon2_kats(constants: Poseidon2Constants) -> Vec<(usize, Vec<u32>, Vec<u32>)> {
    match constants {
        Poseidon2Constants::Plonky3 => {
            let j = read_json("poseidon2/poseidon2_babybear_plonky3_kat.json");
            j.at("vectors")
                .arr()
                .iter()
                // The other entries use Xoroshiro128+-drawn constants, which the C ABI does not name.
                .filter(|v| {
                    v.at("constants")
                        .str()
                        .contains("default_babybear_poseidon2")
                })
                .map(|v| {
                    // Plonky3's inputs go through BabyBear::from_u32, which reduces mod p (the
                    // width-24 input holds a word >= p); the C ABI takes reduced words.
                    let input = v.at("input").u32s().into_iter().map(|x| x % P).collect();
                    (v.at("width").u64() as usize, input, v.at("expected").u32s())
                })
                .collect()
        }
        Poseidon2Constants::Whir => {
            let j =
                read_json("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
            let mut v: Vec<_> = j
                .at("permutation_w16_smallrng_seed1")
                .arr()
                .iter()
                .map(|v| (16, v.at("input").u32s(), v.at("output").u32s()))
                .collect();
            // compress(L, R) = Perm(L || R)[0..8]: a permutation known answer on its first half.
            for t in j.at("truncated_permutation_2_8_16").arr() {
                let mut input = t.at("left").u32s();
                input.extend(t.at("right").u32s());
                v.push((16, input, t.at("output").u32s()));
            }
            v
        }
    }
}

#[test]
fn poseidon2_known_answers_both_constant_sets_both_reprs() {
    for constants in [Poseidon2Constants::Plonky3, Poseidon2Constants::Whir] {
        let kats = poseidon2_kats(constants);
        assert!(kats.len() >= 2, "{constants:?}");
        if constants == Poseidon2Constants::Plonky3 {
            assert_eq!(kats.iter().map(|k| k.0).collect::<Vec<_>>(), [16, 24]);
        }
        for (width, input, expected) in &kats {
            for b in backends() {
                for repr in [Repr::Canonical, Repr::Montgomery] {
                    let mut s: Vec<u32> = input.iter().map(|&x| repr.encode(x)).collect();
                    poseidon2_permute(&mut s, *width, constants, repr, b).unwrap();
                    let got = decode(repr, &s);
                    // Truncated-permutation answers give only the first 8 words.
                    assert_eq!(
                        got[..expected.len()],
                        expected[..],
                        "{constants:?} w{width} {repr:?} {b:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn poseidon2_batch_lanes_are_independent() {
    // A known answer in several lanes of a batch, between random neighbours, on every backend
    // (a batch large enough for Auto to take the GPU where there is one).
    let (width, input, expected) = poseidon2_kats(Poseidon2Constants::Plonky3).remove(0);
    let mut rng = Rng::new(5);
    let n = 5000;
    let mut states = random_words(&mut rng, n * width);
    for k in [0, 7, 4096, n - 1] {
        states[k * width..(k + 1) * width].copy_from_slice(&input);
    }
    let mut reference = None;
    for b in backends() {
        let mut s = states.clone();
        poseidon2_permute(
            &mut s,
            width,
            Poseidon2Constants::Plonky3,
            Repr::Canonical,
            b,
        )
        .unwrap();
        for k in [0, 7, 4096, n - 1] {
            assert_eq!(
                s[k * width..(k + 1) * width],
                expected[..],
                "lane {k} {b:?}"
            );
        }
        match &reference {
            None => reference = Some(s),
            Some(r) => assert_eq!(&s, r, "{b:?} differs from the CPU"),
        }
    }
}

#[test]
fn poseidon2_bad_input_is_an_error() {
    // Widths 8 and 0, 40 words of width 16, a word >= p.
    let mut s = vec![0u32; 48];
    for (len, width) in [(48, 8), (48, 0), (40, 16)] {
        let r = poseidon2_permute(
            &mut s[..len],
            width,
            Poseidon2Constants::Plonky3,
            Repr::Canonical,
            Backend::Cpu,
        );
        invalid(r, &format!("{len} words, width {width}"));
    }
    s[3] = P;
    let r = poseidon2_permute(
        &mut s,
        24,
        Poseidon2Constants::Whir,
        Repr::Canonical,
        Backend::Cpu,
    );
    invalid(r, "a word >= p");
    // No states is a valid empty batch.
    poseidon2_permute(
        &mut [],
        16,
        Poseidon2Constants::Whir,
        Repr::Canonical,
        Backend::Cpu,
    )
    .unwrap();
}

#[test]
fn raw_poseidon2_entry_rejects_unknown_names() {
    // The fixed C entry point takes names as strings: unknown or non-UTF-8 names are errors with
    // a message, not crashes.
    let mut s = [0u32; 16];
    for (field, constants) in [
        (&b"babybear\0"[..], &b"nope\0"[..]),
        (b"goldilocks\0", b"plonky3\0"),
        (b"baby\xffbear\0", b"whir\0"),
    ] {
        let st = unsafe {
            zkgpu::sys::zkgpu_poseidon2_permute(
                s.as_mut_ptr(),
                1,
                16,
                field.as_ptr().cast(),
                constants.as_ptr().cast(),
                zkgpu::sys::ZKGPU_BACKEND_CPU,
            )
        };
        assert_eq!(st, zkgpu::sys::ZKGPU_INVALID_ARGUMENT);
    }
    let st = unsafe {
        zkgpu::sys::zkgpu_poseidon2_permute(
            s.as_mut_ptr(),
            1,
            16,
            c"babybear".as_ptr(),
            c"whir".as_ptr(),
            zkgpu::sys::ZKGPU_BACKEND_CPU,
        )
    };
    assert_eq!(st, zkgpu::sys::ZKGPU_OK);
    assert_eq!(
        s.to_vec(),
        poseidon2_kats(Poseidon2Constants::Whir)[0].2,
        "all-zero input, set B"
    );
}
