// BLS12-377 MSM through the binding: the known answer of tests/vectors/bls12_377/msm_cli_kat.txt
// (an independent Python reference) in both encodings, linearity msm(P, a) + msm(P, b) =
// msm(P, a + b) (the sum taken by the library itself as msm([A, B], [1, 1])), prepared bases equal
// to the one-shot call, and bad points, scalars and lengths as errors.
mod common;

use common::{backends, read_vector, Rng};
use zkgpu::msm::{msm, Bases, Encoding, PRECOMPUTED_BYTES, SCALAR_BYTES};
use zkgpu::{Backend, ErrorKind};

// Little-endian 64-bit limbs, enough for 384-bit values.
type Big = [u64; 6];

fn big_hex(s: &str) -> Big {
    let s = s.trim_start_matches("0x");
    let mut out = [0u64; 6];
    for (i, chunk) in s.as_bytes().rchunks(16).enumerate() {
        out[i] = u64::from_str_radix(std::str::from_utf8(chunk).unwrap(), 16).unwrap();
    }
    out
}
fn geq(a: &Big, b: &Big) -> bool {
    for i in (0..6).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}
/// a op b limb by limb, the carry (or borrow) of each limb going into the next.
fn with_carries(a: &Big, b: &Big, op: fn(u64, u64) -> (u64, bool)) -> Big {
    let mut out = [0u64; 6];
    let mut carry = false;
    for i in 0..6 {
        let (d, c1) = op(a[i], b[i]);
        let (d, c2) = op(d, u64::from(carry));
        out[i] = d;
        carry = c1 || c2;
    }
    out
}
fn sub(a: &Big, b: &Big) -> Big {
    with_carries(a, b, u64::overflowing_sub)
}
fn add(a: &Big, b: &Big) -> Big {
    with_carries(a, b, u64::overflowing_add)
}
fn reduce(mut a: Big, m: &Big) -> Big {
    while geq(&a, m) {
        a = sub(&a, m);
    }
    a
}
fn le_bytes(a: &Big, n: usize) -> Vec<u8> {
    a.iter().flat_map(|l| l.to_le_bytes()).take(n).collect()
}

fn p() -> Big {
    big_hex("01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001")
}
fn r() -> Big {
    big_hex("12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001")
}

/// An affine point (None: infinity) in arkworks' encodings.
fn encode(pt: Option<(Big, Big)>, enc: Encoding) -> Vec<u8> {
    let mut out = vec![0u8; enc.point_bytes()];
    let last = out.len() - 1;
    match pt {
        None => out[last] |= 0x40,
        Some((x, y)) => {
            out[..48].copy_from_slice(&le_bytes(&x, 48));
            if enc == Encoding::Uncompressed {
                out[48..].copy_from_slice(&le_bytes(&y, 48));
            }
            // The sign flag, in both encodings (arkworks writes it on the last coordinate; a
            // reader of the uncompressed form ignores it): y is "negative" when y > p - y.
            if !geq(&sub(&p(), &y), &y) {
                out[last] |= 0x80;
            }
        }
    }
    out
}

fn parse_point(s: &str) -> Option<(Big, Big)> {
    if s == "infinity" {
        return None;
    }
    let (x, y) = s.split_once(':').unwrap();
    Some((big_hex(x), big_hex(y)))
}

struct Kat {
    points: Vec<Option<(Big, Big)>>,
    scalars: Vec<u8>,
    expected: Option<(Big, Big)>,
}

fn kat() -> Kat {
    let text = read_vector("bls12_377/msm_cli_kat.txt");
    let mut lines = text.lines();
    let (mut points, mut scalars) = (Vec::new(), Vec::new());
    for l in lines.by_ref() {
        if l.starts_with("# expected") {
            break;
        }
        let (pt, s) = l.rsplit_once(':').unwrap();
        points.push(parse_point(pt));
        // The file holds one scalar >= r (a 256-bit random); the C ABI takes s mod r.
        scalars.extend(le_bytes(&reduce(big_hex(s), &r()), 32));
    }
    let expected = parse_point(lines.next().unwrap());
    Kat {
        points,
        scalars,
        expected,
    }
}

fn packed(points: &[Option<(Big, Big)>], enc: Encoding) -> Vec<u8> {
    points.iter().flat_map(|&p| encode(p, enc)).collect()
}

#[test]
fn known_answer_both_encodings() {
    let k = kat();
    assert_eq!(k.points.len(), 6);
    for enc in [Encoding::Compressed, Encoding::Uncompressed] {
        let pts = packed(&k.points, enc);
        for b in backends() {
            assert_eq!(
                msm(&pts, &k.scalars, enc, b).unwrap(),
                encode(k.expected, enc),
                "{enc:?} {b:?}"
            );
        }
        let bases = Bases::new(&pts, enc).unwrap();
        assert_eq!(bases.len(), 6);
        assert_eq!(bases.export().unwrap().len(), 6 * PRECOMPUTED_BYTES);
        for b in backends() {
            assert_eq!(
                bases.msm(&k.scalars, enc, b).unwrap(),
                encode(k.expected, enc),
                "bases {enc:?} {b:?}"
            );
        }
    }
}

#[test]
fn linearity() {
    let k = kat();
    // The KAT's points, several times (a larger MSM), with random scalars a, b < r.
    let points: Vec<_> = (0..40).map(|i| k.points[i % k.points.len()]).collect();
    let enc = Encoding::Uncompressed;
    let pts = packed(&points, enc);
    let mut rng = Rng::new(377);
    let rand_scalar = |rng: &mut Rng| {
        let mut v = [0u64; 6];
        for l in v.iter_mut().take(4) {
            *l = rng.next_u64();
        }
        v[3] >>= 3; // < 2^253, then reduce mod r
        reduce(v, &r())
    };
    let a: Vec<Big> = (0..points.len()).map(|_| rand_scalar(&mut rng)).collect();
    let b: Vec<Big> = (0..points.len()).map(|_| rand_scalar(&mut rng)).collect();
    let ab: Vec<Big> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| reduce(add(x, y), &r()))
        .collect();
    let flat = |v: &[Big]| v.iter().flat_map(|s| le_bytes(s, 32)).collect::<Vec<u8>>();
    let bases = Bases::new(&pts, enc).unwrap();
    for be in backends() {
        let ma = msm(&pts, &flat(&a), enc, be).unwrap();
        let mb = msm(&pts, &flat(&b), enc, be).unwrap();
        let mab = msm(&pts, &flat(&ab), enc, be).unwrap();
        assert_ne!(ma, mb);
        let one = le_bytes(&[1, 0, 0, 0, 0, 0], 32);
        let sum = msm(
            &[ma.clone(), mb].concat(),
            &[one.clone(), one].concat(),
            enc,
            be,
        )
        .unwrap();
        assert_eq!(sum, mab, "msm(a) + msm(b) = msm(a + b), {be:?}");
        assert_eq!(bases.msm(&flat(&a), enc, be).unwrap(), ma);
    }
    // Bases are Send + Sync: two threads use one set at once.
    std::thread::scope(|s| {
        let h1 = s.spawn(|| bases.msm(&flat(&a), enc, Backend::Cpu).unwrap());
        let h2 = s.spawn(|| bases.msm(&flat(&b), enc, Backend::Cpu).unwrap());
        assert_eq!(
            h1.join().unwrap(),
            msm(&pts, &flat(&a), enc, Backend::Cpu).unwrap()
        );
        assert_eq!(
            h2.join().unwrap(),
            msm(&pts, &flat(&b), enc, Backend::Cpu).unwrap()
        );
    });
}

#[test]
fn empty_input_is_the_identity() {
    for enc in [Encoding::Compressed, Encoding::Uncompressed] {
        assert_eq!(msm(&[], &[], enc, Backend::Cpu).unwrap(), encode(None, enc));
    }
}

#[test]
fn bad_input_is_an_error() {
    let inv = |e: zkgpu::Error| assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    let k = kat();
    let enc = Encoding::Uncompressed;
    let pts = packed(&k.points, enc);
    inv(msm(&pts, &k.scalars[..k.scalars.len() - 1], enc, Backend::Cpu).unwrap_err()); // not whole scalars
    inv(msm(&pts, &k.scalars[..5 * SCALAR_BYTES], enc, Backend::Cpu).unwrap_err()); // 5 scalars, 6 points
    inv(msm(&pts, &k.scalars, Encoding::Compressed, Backend::Cpu).unwrap_err()); // 96-byte points read as 48
                                                                                 // A scalar >= r.
    let mut s = k.scalars.clone();
    s[..32].copy_from_slice(&le_bytes(&r(), 32));
    inv(msm(&pts, &s, enc, Backend::Cpu).unwrap_err());
    // A point off the curve (y + 1) and a non-canonical coordinate (x + p).
    let (x, y) = k.points[0].unwrap();
    let off = encode(Some((x, add(&y, &[1, 0, 0, 0, 0, 0]))), enc);
    inv(msm(&off, &k.scalars[..32], enc, Backend::Cpu).unwrap_err());
    inv(Bases::new(&off, enc).unwrap_err());
    let mut noncanon = encode(Some((x, y)), enc);
    noncanon[..48].copy_from_slice(&le_bytes(&add(&x, &p()), 48));
    inv(msm(&noncanon, &k.scalars[..32], enc, Backend::Cpu).unwrap_err());
    inv(Bases::new(&pts[..pts.len() - 1], enc).unwrap_err());
    let bases = Bases::new(&pts, enc).unwrap();
    inv(bases.msm(&k.scalars[..32], enc, Backend::Cpu).unwrap_err());
}
