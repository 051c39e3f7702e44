//! Ed25519 batch verification (RFC 8032 pure Ed25519) with the rules of a named library family.
use crate::{sys, Backend, Error};

/// The verification rules (docs/ed25519.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// OpenSSL, Go `crypto/ed25519`, BoringSSL, ed25519-dalek `verify()`.
    #[default]
    Openssl,
    /// ed25519-dalek `verify_strict()`: also rejects small-order A and R.
    Strict,
    /// ZIP-215 (ed25519-zebra, ed25519-consensus): cofactored, lenient encodings.
    Zip215,
}

impl Mode {
    fn raw(self) -> sys::zkgpu_ed25519_mode {
        match self {
            Mode::Openssl => sys::ZKGPU_ED25519_OPENSSL,
            Mode::Strict => sys::ZKGPU_ED25519_STRICT,
            Mode::Zip215 => sys::ZKGPU_ED25519_ZIP215,
        }
    }
}

/// One signature to check, borrowed from the caller.
#[derive(Clone, Copy, Debug)]
pub struct Item<'a> {
    /// 32 bytes; any other length makes the item invalid (`false`), not an error.
    pub public_key: &'a [u8],
    /// 64 bytes (R || S); any other length makes the item invalid.
    pub signature: &'a [u8],
    pub message: &'a [u8],
}

/// The verdict of every item: `true` when `items[i]` is valid under `mode`. Items are judged on
/// their own (an invalid one never changes another's verdict) and every backend gives the same
/// verdicts. `Backend::Auto` uses the GPU above the library's crossover (128 signatures).
/// Errors: `Unavailable` for `Backend::Cuda` without a usable GPU.
pub fn verify_batch(items: &[Item], mode: Mode, backend: Backend) -> Result<Vec<bool>, Error> {
    let mut verdicts = vec![0u8; items.len()];
    verify_batch_into(items, mode, backend, &mut verdicts)?;
    Ok(verdicts.into_iter().map(|v| v == 1).collect())
}

/// [`verify_batch`] writing the C ABI's verdict bytes (1 valid, 0 invalid) into a caller buffer,
/// for callers that keep one across batches. `verdicts.len()` must equal `items.len()`.
pub fn verify_batch_into(
    items: &[Item],
    mode: Mode,
    backend: Backend,
    verdicts: &mut [u8],
) -> Result<(), Error> {
    if verdicts.len() != items.len() {
        return Err(Error::invalid(format!(
            "ed25519::verify_batch_into: {} verdict slots for {} items",
            verdicts.len(),
            items.len()
        )));
    }
    // The C ABI takes six parallel arrays, filled in one pass over the items (at 2^20 items
    // this is the binding's whole cost; the slices stay borrowed for the call).
    let n = items.len();
    let (mut pks, mut pk_lens) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut sigs, mut sig_lens) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut msgs, mut msg_lens) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for it in items {
        pks.push(it.public_key.as_ptr());
        pk_lens.push(it.public_key.len());
        sigs.push(it.signature.as_ptr());
        sig_lens.push(it.signature.len());
        msgs.push(it.message.as_ptr());
        msg_lens.push(it.message.len());
    }
    // SAFETY: every array holds n entries; entry i points at a live slice of the stated length
    // (an empty slice's dangling pointer is never read: its length is 0); verdicts has n bytes.
    let status = unsafe {
        sys::zkgpu_ed25519_verify_batch(
            pks.as_ptr(),
            pk_lens.as_ptr(),
            sigs.as_ptr(),
            sig_lens.as_ptr(),
            msgs.as_ptr(),
            msg_lens.as_ptr(),
            n,
            mode.raw(),
            backend.raw(),
            verdicts.as_mut_ptr(),
        )
    };
    Error::check(status)
}
