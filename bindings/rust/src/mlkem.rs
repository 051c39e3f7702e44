//! ML-KEM (FIPS 203) batches. Keys, ciphertexts, seeds and messages are the standard byte
//! encodings, fixed-size and packed back to back (item i at `i * size`); the item count follows
//! from the first input's length, and every other input must agree with it.
use crate::{item_count as count, item_statuses as statuses, sys, Backend, Error, ItemStatus};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Set {
    MlKem512,
    MlKem768,
    MlKem1024,
}

/// The byte sizes of one item's encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sizes {
    pub encapsulation_key: usize,
    /// The expanded decapsulation key.
    pub decapsulation_key: usize,
    pub ciphertext: usize,
    /// d || z: 64.
    pub seed: usize,
    /// m: 32.
    pub message: usize,
    /// K: 32.
    pub shared_key: usize,
}

impl Set {
    fn raw(self) -> sys::zkgpu_mlkem_set {
        match self {
            Set::MlKem512 => sys::ZKGPU_MLKEM_512,
            Set::MlKem768 => sys::ZKGPU_MLKEM_768,
            Set::MlKem1024 => sys::ZKGPU_MLKEM_1024,
        }
    }

    pub fn sizes(self) -> Sizes {
        let s = crate::sizes_of(
            sys::zkgpu_mlkem_sizes_of,
            self.raw(),
            format_args!("zkgpu_mlkem_sizes_of({self:?})"),
        );
        copy_fields!(s => Sizes {
            encapsulation_key, decapsulation_key, ciphertext, seed, message, shared_key
        })
    }
}

/// Keys of every item: `encapsulation_keys` and `decapsulation_keys` packed back to back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPairs {
    pub encapsulation_keys: Vec<u8>,
    pub decapsulation_keys: Vec<u8>,
}

/// KeyGen_internal(d, z) for each 64-byte seed d || z.
pub fn keygen_batch(set: Set, seeds: &[u8], backend: Backend) -> Result<KeyPairs, Error> {
    let s = set.sizes();
    let key_bytes = [s.encapsulation_key, s.decapsulation_key];
    // SAFETY: n seeds in, n keys of each size out.
    let [ek, dk] = crate::keygen(
        "mlkem::keygen_batch",
        seeds,
        s.seed,
        key_bytes,
        |n, ek, dk| unsafe {
            sys::zkgpu_mlkem_keygen_batch(set.raw(), seeds.as_ptr(), n, backend.raw(), ek, dk)
        },
    )?;
    Ok(KeyPairs {
        encapsulation_keys: ek,
        decapsulation_keys: dk,
    })
}

/// Encapsulations of every item: ciphertexts and shared keys packed, and each item's status
/// (`InvalidInput`, with zeroed ciphertext and key, for an ek that fails the modulus check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encapsulations {
    pub ciphertexts: Vec<u8>,
    pub shared_keys: Vec<u8>,
    pub status: Vec<ItemStatus>,
}

/// The deterministic Encaps_internal with an explicit 32-byte message per item.
pub fn encaps_batch(
    set: Set,
    encapsulation_keys: &[u8],
    messages: &[u8],
    backend: Backend,
) -> Result<Encapsulations, Error> {
    encaps(set, encapsulation_keys, Some(messages), backend)
}

/// Encaps with fresh randomness from the operating system (FIPS 203 Algorithm 20).
pub fn encaps_random_batch(
    set: Set,
    encapsulation_keys: &[u8],
    backend: Backend,
) -> Result<Encapsulations, Error> {
    encaps(set, encapsulation_keys, None, backend)
}

fn encaps(
    set: Set,
    ek: &[u8],
    messages: Option<&[u8]>,
    backend: Backend,
) -> Result<Encapsulations, Error> {
    let s = set.sizes();
    let what = if messages.is_some() {
        "mlkem::encaps_batch"
    } else {
        "mlkem::encaps_random_batch"
    };
    let n = count(what, "encapsulation keys", ek, s.encapsulation_key, None)?;
    if let Some(m) = messages {
        count(what, "messages", m, s.message, Some(n))?;
    }
    let (mut ct, mut key, mut st) = (
        vec![0u8; n * s.ciphertext],
        vec![0u8; n * s.shared_key],
        vec![0u8; n],
    );
    let (ct_p, key_p, st_p) = (ct.as_mut_ptr(), key.as_mut_ptr(), st.as_mut_ptr());
    // SAFETY: n items of every input and output, at the set's sizes.
    Error::check(unsafe {
        match messages {
            Some(m) => sys::zkgpu_mlkem_encaps_batch(
                set.raw(),
                ek.as_ptr(),
                m.as_ptr(),
                n,
                backend.raw(),
                ct_p,
                key_p,
                st_p,
            ),
            None => sys::zkgpu_mlkem_encaps_random_batch(
                set.raw(),
                ek.as_ptr(),
                n,
                backend.raw(),
                ct_p,
                key_p,
                st_p,
            ),
        }
    })?;
    Ok(Encapsulations {
        ciphertexts: ct,
        shared_keys: key,
        status: statuses(st),
    })
}

/// Shared keys of every item and each item's status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decapsulations {
    pub shared_keys: Vec<u8>,
    pub status: Vec<ItemStatus>,
}

/// Decaps with implicit rejection: a ciphertext that does not re-encrypt still gives a
/// (pseudorandom) key and `Ok`; `InvalidInput` only for a dk whose stored H(ek) does not match.
pub fn decaps_batch(
    set: Set,
    decapsulation_keys: &[u8],
    ciphertexts: &[u8],
    backend: Backend,
) -> Result<Decapsulations, Error> {
    let s = set.sizes();
    let what = "mlkem::decaps_batch";
    let n = count(
        what,
        "decapsulation keys",
        decapsulation_keys,
        s.decapsulation_key,
        None,
    )?;
    count(what, "ciphertexts", ciphertexts, s.ciphertext, Some(n))?;
    let (mut key, mut st) = (vec![0u8; n * s.shared_key], vec![0u8; n]);
    // SAFETY: n items of every input and output, at the set's sizes.
    Error::check(unsafe {
        sys::zkgpu_mlkem_decaps_batch(
            set.raw(),
            decapsulation_keys.as_ptr(),
            ciphertexts.as_ptr(),
            n,
            backend.raw(),
            key.as_mut_ptr(),
            st.as_mut_ptr(),
        )
    })?;
    Ok(Decapsulations {
        shared_keys: key,
        status: statuses(st),
    })
}
