//! ML-DSA (FIPS 204) batches. Keys and signatures are the standard byte encodings (pk, the
//! expanded sk, the 32-byte seed xi); signing and verification take per-item views because
//! messages and contexts have their own lengths.
use crate::{item_statuses as statuses, item_views as views, sys, Backend, Error, ItemStatus};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Set {
    MlDsa44,
    MlDsa65,
    MlDsa87,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sizes {
    pub public_key: usize,
    /// The expanded secret key.
    pub secret_key: usize,
    pub signature: usize,
    /// xi: 32.
    pub seed: usize,
    /// 32.
    pub rnd: usize,
    /// 64.
    pub mu: usize,
    /// 255.
    pub max_context: usize,
}

impl Set {
    fn raw(self) -> sys::zkgpu_mldsa_set {
        match self {
            Set::MlDsa44 => sys::ZKGPU_MLDSA_44,
            Set::MlDsa65 => sys::ZKGPU_MLDSA_65,
            Set::MlDsa87 => sys::ZKGPU_MLDSA_87,
        }
    }

    pub fn sizes(self) -> Sizes {
        let s = crate::sizes_of(
            sys::zkgpu_mldsa_sizes_of,
            self.raw(),
            format_args!("zkgpu_mldsa_sizes_of({self:?})"),
        );
        copy_fields!(s => Sizes { public_key, secret_key, signature, seed, rnd, mu, max_context })
    }
}

/// Public and secret keys of every item, packed back to back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPairs {
    pub public_keys: Vec<u8>,
    pub secret_keys: Vec<u8>,
}

/// KeyGen_internal(xi) for each 32-byte seed.
pub fn keygen_batch(set: Set, seeds: &[u8], backend: Backend) -> Result<KeyPairs, Error> {
    let s = set.sizes();
    let key_bytes = [s.public_key, s.secret_key];
    // SAFETY: n seeds in, n keys of each size out.
    let [pk, sk] = crate::keygen(
        "mldsa::keygen_batch",
        seeds,
        s.seed,
        key_bytes,
        |n, pk, sk| unsafe {
            sys::zkgpu_mldsa_keygen_batch(set.raw(), seeds.as_ptr(), n, backend.raw(), pk, sk)
        },
    )?;
    Ok(KeyPairs {
        public_keys: pk,
        secret_keys: sk,
    })
}

/// One message to sign.
#[derive(Clone, Copy, Debug, Default)]
pub struct SignItem<'a> {
    /// The expanded secret key.
    pub secret_key: &'a [u8],
    /// The message M, or the 64-byte mu when signing with `external_mu`.
    pub message: &'a [u8],
    /// At most 255 bytes (ignored with `external_mu`).
    pub context: &'a [u8],
    /// 32 bytes for hedged signing; empty for deterministic signing.
    pub rnd: &'a [u8],
}

/// Signatures of every item, packed (`signature(i)`), and each item's status (`InvalidInput`,
/// with a zeroed signature, for a wrong key, rnd or mu length, a context over 255 bytes or a
/// key with s1/s2 out of range).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signatures {
    pub signatures: Vec<u8>,
    pub status: Vec<ItemStatus>,
    signature_bytes: usize,
}

impl Signatures {
    pub fn signature(&self, i: usize) -> &[u8] {
        &self.signatures[i * self.signature_bytes..(i + 1) * self.signature_bytes]
    }
}

/// Signs every item (`external_mu`: each message is mu itself).
pub fn sign_batch(
    set: Set,
    items: &[SignItem],
    external_mu: bool,
    backend: Backend,
) -> Result<Signatures, Error> {
    let s = set.sizes();
    let n = items.len();
    let (sk, sk_len) = views(items, |it| it.secret_key);
    let (msg, msg_len) = views(items, |it| it.message);
    let (ctx, ctx_len) = views(items, |it| it.context);
    let (rnd, rnd_len) = views(items, |it| it.rnd);
    let mut sigs = vec![0u8; n * s.signature];
    let mut st = vec![0u8; n];
    // SAFETY: every array has n entries pointing at live slices of the stated lengths; sigs
    // holds n signatures and st n statuses.
    Error::check(unsafe {
        sys::zkgpu_mldsa_sign_batch(
            set.raw(),
            sk.as_ptr(),
            sk_len.as_ptr(),
            msg.as_ptr(),
            msg_len.as_ptr(),
            ctx.as_ptr(),
            ctx_len.as_ptr(),
            rnd.as_ptr(),
            rnd_len.as_ptr(),
            n,
            i32::from(external_mu),
            backend.raw(),
            sigs.as_mut_ptr(),
            st.as_mut_ptr(),
        )
    })?;
    Ok(Signatures {
        signatures: sigs,
        status: statuses(st),
        signature_bytes: s.signature,
    })
}

/// One signature to check.
#[derive(Clone, Copy, Debug, Default)]
pub struct VerifyItem<'a> {
    pub public_key: &'a [u8],
    /// M, or mu with `external_mu`.
    pub message: &'a [u8],
    pub context: &'a [u8],
    pub signature: &'a [u8],
}

/// `true` for each valid signature; wrong lengths and contexts over 255 bytes are `false`.
pub fn verify_batch(
    set: Set,
    items: &[VerifyItem],
    external_mu: bool,
    backend: Backend,
) -> Result<Vec<bool>, Error> {
    let n = items.len();
    let (pk, pk_len) = views(items, |it| it.public_key);
    let (msg, msg_len) = views(items, |it| it.message);
    let (ctx, ctx_len) = views(items, |it| it.context);
    let (sig, sig_len) = views(items, |it| it.signature);
    let mut ok = vec![0u8; n];
    // SAFETY: every array has n entries pointing at live slices of the stated lengths.
    Error::check(unsafe {
        sys::zkgpu_mldsa_verify_batch(
            set.raw(),
            pk.as_ptr(),
            pk_len.as_ptr(),
            msg.as_ptr(),
            msg_len.as_ptr(),
            ctx.as_ptr(),
            ctx_len.as_ptr(),
            sig.as_ptr(),
            sig_len.as_ptr(),
            n,
            i32::from(external_mu),
            backend.raw(),
            ok.as_mut_ptr(),
        )
    })?;
    Ok(crate::verdicts(ok))
}
