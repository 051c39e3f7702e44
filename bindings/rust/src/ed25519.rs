//! Ed25519 batch verification (RFC 8032 pure Ed25519) with the rules of a named library family.
use std::sync::Mutex;

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

/// One signature to check, borrowed from the caller. `repr(C)`: an array of items is, on every
/// compiler whose slice references are (pointer, length) pairs, the C ABI's array of
/// `zkgpu_ed25519_item`, which the library reads in place.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Item<'a> {
    /// 32 bytes; any other length makes the item invalid (`false`), not an error.
    pub public_key: &'a [u8],
    /// 64 bytes (R || S); any other length makes the item invalid.
    pub signature: &'a [u8],
    pub message: &'a [u8],
}

/// A batch already in packed arrays, verified in place (no copy): `n` keys of 32 bytes, `n`
/// signatures of 64 bytes, the messages back to back, item `i`'s message
/// `messages[message_offsets[i]..message_offsets[i + 1]]`. `message_offsets` has `n + 1`
/// nondecreasing entries from 0 to `messages.len()` (it may be empty when `n` is 0).
#[derive(Clone, Copy, Debug, Default)]
pub struct PackedBatch<'a> {
    pub public_keys: &'a [u8],
    pub signatures: &'a [u8],
    pub messages: &'a [u8],
    pub message_offsets: &'a [u64],
}

impl PackedBatch<'_> {
    /// The number of items (`public_keys.len() / 32`), after checking that the arrays agree.
    pub fn len(&self) -> Result<usize, Error> {
        let n = crate::item_count(
            "ed25519::PackedBatch",
            "public_keys",
            self.public_keys,
            sys::ZKGPU_ED25519_PUBLIC_KEY_BYTES,
            None,
        )?;
        crate::item_count(
            "ed25519::PackedBatch",
            "signatures",
            self.signatures,
            sys::ZKGPU_ED25519_SIGNATURE_BYTES,
            Some(n),
        )?;
        let offsets_ok =
            self.message_offsets.len() == n + 1 || (n == 0 && self.message_offsets.is_empty());
        if !offsets_ok {
            return Err(Error::invalid(format!(
                "ed25519::PackedBatch: {} message offsets for {n} items (want n + 1)",
                self.message_offsets.len()
            )));
        }
        // The library reads messages[..message_offsets[n]]: it must be the slice's length.
        let last = self.message_offsets.last().copied().unwrap_or(0);
        if last != self.messages.len() as u64 {
            return Err(Error::invalid(format!(
                "ed25519::PackedBatch: message_offsets[{n}] = {last} but messages has {} bytes",
                self.messages.len()
            )));
        }
        Ok(n)
    }

    /// Whether the batch has no items.
    pub fn is_empty(&self) -> bool {
        self.public_keys.is_empty()
    }
}

/// The verdict of every item: `true` when `items[i]` is valid under `mode`. Items are judged on
/// their own (an invalid one never changes another's verdict) and every backend gives the same
/// verdicts. `Backend::Auto` uses the GPU above the library's crossover (128 signatures).
/// Errors: `Unavailable` for `Backend::Cuda` without a usable GPU.
pub fn verify_batch(items: &[Item], mode: Mode, backend: Backend) -> Result<Vec<bool>, Error> {
    let mut verdicts = vec![0u8; items.len()];
    verify_batch_into(items, mode, backend, &mut verdicts)?;
    Ok(crate::verdicts(verdicts))
}

/// [`verify_batch`] writing the C ABI's verdict bytes (1 valid, 0 invalid) into a caller buffer,
/// for callers that keep one across batches. `verdicts.len()` must equal `items.len()`.
///
/// How the items reach the library: where `&[u8]` is laid out as (pointer, length), which
/// [`items_are_c_structs`] checks once, `items` is passed as it is to
/// `zkgpu_ed25519_verify_batch_items` (nothing is copied or written: the library reads the item
/// bytes where they are, and its GPU pack overlaps the kernels of earlier chunks). Otherwise the
/// six pointer and length arrays are written first ([`verify_through_arrays`]). Why not the
/// packed entry point: packing would copy 160 bytes an item from scattered places before the
/// call, and at 4096 items that alone is more than the 5% the binding may add.
pub fn verify_batch_into(
    items: &[Item],
    mode: Mode,
    backend: Backend,
    verdicts: &mut [u8],
) -> Result<(), Error> {
    if !items_are_c_structs() {
        return verify_through_arrays(items, mode, backend, verdicts);
    }
    check_verdict_slots("ed25519::verify_batch_into", items.len(), verdicts)?;
    // SAFETY: items_are_c_structs() checked that Item (repr(C), three slice references) has the
    // size of zkgpu_ed25519_item and that a slice reference is (pointer, length); every entry
    // points at a live borrowed slice of the stated length (an empty slice's dangling pointer is
    // never read: its length is 0); verdicts has n bytes and, a unique borrow, overlaps no input.
    Error::check(unsafe {
        sys::zkgpu_ed25519_verify_batch_items(
            items.as_ptr() as *const sys::zkgpu_ed25519_item,
            items.len(),
            mode.raw(),
            backend.raw(),
            verdicts.as_mut_ptr(),
        )
    })
}

fn check_verdict_slots(what: &str, n: usize, verdicts: &[u8]) -> Result<(), Error> {
    if verdicts.len() != n {
        return Err(Error::invalid(format!(
            "{what}: {} verdict slots for {n} items",
            verdicts.len()
        )));
    }
    Ok(())
}

/// Whether [`verify_batch_into`] passes the items to the library as they are (see there).
#[doc(hidden)]
pub fn reads_items_in_place() -> bool {
    items_are_c_structs()
}

/// Whether `[Item]` is the C ABI's `zkgpu_ed25519_item` array: Item has six words and a `&[u8]`
/// is its data pointer then its length. Rust does not promise the order of a slice reference's two
/// words, so it is looked at, once, rather than assumed.
fn items_are_c_structs() -> bool {
    static LAYOUT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LAYOUT.get_or_init(|| {
        const WORD: usize = std::mem::size_of::<usize>();
        if std::mem::size_of::<Item>() != std::mem::size_of::<sys::zkgpu_ed25519_item>()
            || std::mem::size_of::<&[u8]>() != 2 * WORD
            || std::mem::align_of::<Item>() != std::mem::align_of::<sys::zkgpu_ed25519_item>()
        {
            return false;
        }
        let bytes = [1u8, 2, 3];
        let probe: &[u8] = &bytes;
        // SAFETY: both types are two words (checked above); the words are only compared.
        let words: [usize; 2] = unsafe { std::mem::transmute::<&[u8], [usize; 2]>(probe) };
        words == [probe.as_ptr() as usize, probe.len()]
    })
}

/// The other route into the library: the C ABI's six arrays of n words, written from `items`
/// into buffers kept between calls ([`release_buffers`]; fresh pages for 2^20 items, 48 MB,
/// cost milliseconds). What [`verify_batch_into`] does where a slice reference is not
/// (pointer, length); callable on its own so that its tests run everywhere.
#[doc(hidden)]
pub fn verify_through_arrays(
    items: &[Item],
    mode: Mode,
    backend: Backend,
    verdicts: &mut [u8],
) -> Result<(), Error> {
    check_verdict_slots("ed25519::verify_batch_into", items.len(), verdicts)?;
    let n = items.len();
    let mut words = Words::take(6 * n);
    fill_arrays(items, words.slice(6 * n));
    let base = words.as_ptr();
    // SAFETY: the six arrays of n words each are the C ABI's pointer and size_t arrays (usize has
    // the width of both); entry i points at a live borrowed slice of the stated length (an empty
    // slice's dangling pointer is never read: its length is 0); verdicts has n bytes.
    let status = unsafe {
        let arr = |k: usize| base.add(k * n);
        sys::zkgpu_ed25519_verify_batch(
            arr(0) as *const *const u8,
            arr(1),
            arr(2) as *const *const u8,
            arr(3),
            arr(4) as *const *const u8,
            arr(5),
            n,
            mode.raw(),
            backend.raw(),
            verdicts.as_mut_ptr(),
        )
    };
    words.give_back();
    Error::check(status)
}

/// The verdict of every item of a packed batch, read in place by the library (through
/// `zkgpu_ed25519_verify_batch_packed`): the fastest route for callers whose data is already
/// laid out so. Every item has the right lengths by construction. Errors: `InvalidArgument` for
/// arrays that disagree or offsets that decrease (naming the entry), `Unavailable` as above.
pub fn verify_packed(
    batch: &PackedBatch,
    mode: Mode,
    backend: Backend,
) -> Result<Vec<bool>, Error> {
    let n = batch.len()?;
    let mut verdicts = vec![0u8; n];
    verify_packed_into(batch, mode, backend, &mut verdicts)?;
    Ok(crate::verdicts(verdicts))
}

/// [`verify_packed`] into a caller buffer of `n` verdict bytes.
pub fn verify_packed_into(
    batch: &PackedBatch,
    mode: Mode,
    backend: Backend,
    verdicts: &mut [u8],
) -> Result<(), Error> {
    let n = batch.len()?;
    check_verdict_slots("ed25519::verify_packed_into", n, verdicts)?;
    // SAFETY: len() checked keys 32 n, signatures 64 n, n + 1 offsets whose last is
    // messages.len() (the library checks the rest before reading); verdicts has n bytes and, being
    // a unique borrow, overlaps no input.
    Error::check(unsafe {
        sys::zkgpu_ed25519_verify_batch_packed(
            batch.public_keys.as_ptr(),
            batch.signatures.as_ptr(),
            batch.messages.as_ptr(),
            batch.message_offsets.as_ptr(),
            n,
            mode.raw(),
            backend.raw(),
            verdicts.as_mut_ptr(),
        )
    })
}

/// Frees the buffers [`verify_through_arrays`] keeps for its pointer arrays (as large as the largest
/// recent batches, 48 bytes an item); the next call allocates what it needs.
pub fn release_buffers() {
    POOL.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

// From this many items the arrays are written on several threads (2^16 items take ~0.2 ms on
// one; a scoped thread costs ~10-20 us to start).
const PARALLEL_FROM: usize = 1 << 16;
// Kept buffers: enough for a few threads calling at once.
const MAX_KEPT: usize = 4;

static POOL: Mutex<Vec<Vec<usize>>> = Mutex::new(Vec::new());

/// A buffer of at least `len` words from the pool (the smallest that fits), or a new one.
struct Words(Vec<usize>);

impl Words {
    fn take(len: usize) -> Words {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let best = (0..pool.len())
            .filter(|&i| pool[i].len() >= len)
            .min_by_key(|&i| pool[i].len());
        match best {
            Some(i) => Words(pool.swap_remove(i)),
            None => {
                drop(pool);
                Words(vec![0; len])
            }
        }
    }
    fn slice(&mut self, len: usize) -> &mut [usize] {
        &mut self.0[..len]
    }
    fn as_ptr(&self) -> *const usize {
        self.0.as_ptr()
    }
    /// Back to the pool; with MAX_KEPT kept already, the smallest goes.
    fn give_back(self) {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        pool.push(self.0);
        if pool.len() > MAX_KEPT {
            if let Some(i) = (0..pool.len()).min_by_key(|&i| pool[i].len()) {
                pool.swap_remove(i);
            }
        }
    }
}

/// The six arrays (key pointers, key lengths, signature pointers, signature lengths, message
/// pointers, message lengths; n words each) into `words`, on scoped threads for large batches.
fn fill_arrays(items: &[Item], words: &mut [usize]) {
    let n = items.len();
    if n == 0 {
        return;
    }
    let mut cols: Vec<&mut [usize]> = words.chunks_mut(n).collect();
    let fill = |items: &[Item], cols: &mut [&mut [usize]]| {
        for (i, it) in items.iter().enumerate() {
            cols[0][i] = it.public_key.as_ptr() as usize;
            cols[1][i] = it.public_key.len();
            cols[2][i] = it.signature.as_ptr() as usize;
            cols[3][i] = it.signature.len();
            cols[4][i] = it.message.as_ptr() as usize;
            cols[5][i] = it.message.len();
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    if n < PARALLEL_FROM || threads < 2 {
        return fill(items, &mut cols);
    }
    let per = n.div_ceil(threads.min(n / (PARALLEL_FROM / 4)).max(1));
    // Column k of part t is cols[k][t * per ..]: split every column at the same item bounds.
    let mut parts: Vec<Vec<&mut [usize]>> = Vec::new();
    for col in cols {
        for (t, chunk) in col.chunks_mut(per).enumerate() {
            if parts.len() <= t {
                parts.push(Vec::with_capacity(6));
            }
            parts[t].push(chunk);
        }
    }
    std::thread::scope(|s| {
        let mut rest = parts.into_iter().zip(items.chunks(per));
        let first = rest.next();
        for (mut part, its) in rest {
            s.spawn(move || fill(its, &mut part));
        }
        if let Some((mut part, its)) = first {
            fill(its, &mut part); // the calling thread takes a share too
        }
    });
}
