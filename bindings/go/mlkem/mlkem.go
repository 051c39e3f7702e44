// Package mlkem runs batches of ML-KEM (FIPS 203) operations with the zkgpu library: key
// generation from seeds, encapsulation and decapsulation, on the GPU from the library's crossover
// (256 items) under zkgpu.Auto and on all CPU cores below it.
//
// Keys and ciphertexts are the standard byte encodings: the encapsulation key ek, the expanded
// decapsulation key dk, and the 64-byte seed d || z from which KeyGen derives both. Every batch
// reports per item: an item of the wrong length (or an ek that fails FIPS 203's modulus check, a
// dk whose stored H(ek) does not match) gets an Err wrapping zkgpu.ErrInvalidInput, and never
// changes another item's result. The call's own error is for the call as a whole (an unknown
// parameter set or backend, Cuda without a GPU, memory).
package mlkem

/*
#cgo pkg-config: zkgpu
#include <zkgpu.h>
*/
import "C"

import (
	"zkgpu"
	"zkgpu/internal/cabi"
	"zkgpu/internal/enum"
)

// ParameterSet is one of the three FIPS 203 parameter sets (zkgpu_mlkem_set).
type ParameterSet int32

const (
	MLKEM512  ParameterSet = C.ZKGPU_MLKEM_512
	MLKEM768  ParameterSet = C.ZKGPU_MLKEM_768
	MLKEM1024 ParameterSet = C.ZKGPU_MLKEM_1024
)

func (s ParameterSet) String() string {
	return enum.Name(s, []string{MLKEM512: "ML-KEM-512", MLKEM768: "ML-KEM-768", MLKEM1024: "ML-KEM-1024"}, "ParameterSet(%d)")
}

// SeedSize is the length of a KeyGen seed d || z, in every parameter set.
const SeedSize = 64

// Sizes are a parameter set's byte lengths (zkgpu_mlkem_sizes).
type Sizes struct {
	EncapsulationKey int // ek
	DecapsulationKey int // the expanded dk
	Ciphertext       int // c
	Seed             int // d || z: 64
	Message          int // m of EncapsDeterministic: 32
	SharedKey        int // K: 32
}

// Sizes asks the library for the set's sizes; an unknown set is zkgpu.ErrInvalidArgument.
func (s ParameterSet) Sizes() (Sizes, error) {
	var c C.zkgpu_mlkem_sizes
	err := cabi.Call(func() int32 { return int32(C.zkgpu_mlkem_sizes_of(C.zkgpu_mlkem_set(s), &c)) })
	if err != nil {
		return Sizes{}, err
	}
	return Sizes{int(c.encapsulation_key), int(c.decapsulation_key), int(c.ciphertext),
		int(c.seed), int(c.message), int(c.shared_key)}, nil
}

// KeyPair is one item of KeyGen: the seed it came from and the keys, or Err.
type KeyPair struct {
	Seed             []byte
	EncapsulationKey []byte
	DecapsulationKey []byte
	Err              error
}

// Encapsulation is one item of Encaps: the ciphertext to send and the shared key, or Err.
type Encapsulation struct {
	Ciphertext []byte
	SharedKey  []byte
	Err        error
}

// Decapsulation is one item of Decaps: the shared key, or Err.
type Decapsulation struct {
	SharedKey []byte
	Err       error
}

// GenerateKeys draws n seeds from crypto/rand and derives their key pairs. Keep Seed (64 bytes)
// to store a key compactly: KeyGen re-derives the same keys from it.
func GenerateKeys(set ParameterSet, n int, backend zkgpu.Backend) ([]KeyPair, error) {
	return cabi.GenerateKeys(n, SeedSize, func(seeds [][]byte) ([]KeyPair, error) { return KeyGen(set, seeds, backend) })
}

// KeyGen is ML-KEM.KeyGen_internal(d, z) for each 64-byte seed d || z.
func KeyGen(set ParameterSet, seeds [][]byte, backend zkgpu.Backend) ([]KeyPair, error) {
	sz, err := cabi.CheckSet(backend, set.Sizes)
	if err != nil {
		return nil, err
	}
	return cabi.KeyGen(seeds, sz.Seed, sz.EncapsulationKey, sz.DecapsulationKey, func(in, ek, dk []byte) int32 {
		return int32(C.zkgpu_mlkem_keygen_batch(C.zkgpu_mlkem_set(set), u8(in), C.size_t(len(seeds)),
			C.zkgpu_backend(backend), u8(ek), u8(dk)))
	}, func(seed, ek, dk []byte, err error) KeyPair {
		return KeyPair{Seed: seed, EncapsulationKey: ek, DecapsulationKey: dk, Err: err}
	})
}

// Encaps is ML-KEM.Encaps for each encapsulation key, with fresh randomness from the operating
// system (FIPS 203 Algorithm 20). An ek of the wrong length or failing the modulus check is an
// item error.
func Encaps(set ParameterSet, eks [][]byte, backend zkgpu.Backend) ([]Encapsulation, error) {
	return encaps(set, eks, nil, backend)
}

// EncapsDeterministic is ML-KEM.Encaps_internal(ek, m) with the caller's 32-byte m per item: for
// known-answer tests and cross-checks. Production code wants Encaps: m must be fresh randomness.
func EncapsDeterministic(set ParameterSet, eks, ms [][]byte, backend zkgpu.Backend) ([]Encapsulation, error) {
	if len(ms) != len(eks) {
		return nil, cabi.Errorf("%d encapsulation keys, %d messages", len(eks), len(ms))
	}
	return encaps(set, eks, ms, backend)
}

func encaps(set ParameterSet, eks, ms [][]byte, backend zkgpu.Backend) ([]Encapsulation, error) {
	sz, err := cabi.CheckSet(backend, set.Sizes)
	if err != nil {
		return nil, err
	}
	n := len(eks)
	ek, bad := cabi.Flat(eks, sz.EncapsulationKey, "encapsulation key")
	var m []byte
	if ms != nil {
		var badM []error
		m, badM = cabi.Flat(ms, sz.Message, "message m")
		bad = cabi.MergeErrors(bad, badM)
	}
	ct := make([]byte, n*sz.Ciphertext)
	key := make([]byte, n*sz.SharedKey)
	status := make([]byte, n)
	if n > 0 {
		err = cabi.Call(func() int32 {
			if ms == nil {
				return int32(C.zkgpu_mlkem_encaps_random_batch(C.zkgpu_mlkem_set(set), u8(ek), C.size_t(n),
					C.zkgpu_backend(backend), u8(ct), u8(key), u8(status)))
			}
			return int32(C.zkgpu_mlkem_encaps_batch(C.zkgpu_mlkem_set(set), u8(ek), u8(m), C.size_t(n),
				C.zkgpu_backend(backend), u8(ct), u8(key), u8(status)))
		})
		if err != nil {
			return nil, err
		}
	}
	cts, keys := cabi.Split(ct, n, sz.Ciphertext), cabi.Split(key, n, sz.SharedKey)
	out := make([]Encapsulation, n)
	for i := range out {
		if e := cabi.ItemError(bad, status, i, "encapsulation key fails the modulus check (a coefficient is not below q)"); e != nil {
			out[i].Err = e
			continue
		}
		out[i] = Encapsulation{Ciphertext: cts[i], SharedKey: keys[i]}
	}
	return out, nil
}

// Decaps is ML-KEM.Decaps for each (dk, ciphertext) pair, with implicit rejection: a ciphertext
// that does not re-encrypt gives the pseudorandom key J(z || c), not an error, exactly as FIPS
// 203 specifies (so a tampered ciphertext yields a key that differs from the sender's). Item
// errors: lengths, and a dk whose stored H(ek) does not match its ek.
func Decaps(set ParameterSet, dks, cts [][]byte, backend zkgpu.Backend) ([]Decapsulation, error) {
	if len(dks) != len(cts) {
		return nil, cabi.Errorf("%d decapsulation keys, %d ciphertexts", len(dks), len(cts))
	}
	sz, err := cabi.CheckSet(backend, set.Sizes)
	if err != nil {
		return nil, err
	}
	n := len(dks)
	dk, bad := cabi.Flat(dks, sz.DecapsulationKey, "decapsulation key")
	ct, badC := cabi.Flat(cts, sz.Ciphertext, "ciphertext")
	bad = cabi.MergeErrors(bad, badC)
	key := make([]byte, n*sz.SharedKey)
	status := make([]byte, n)
	if n > 0 {
		err = cabi.Call(func() int32 {
			return int32(C.zkgpu_mlkem_decaps_batch(C.zkgpu_mlkem_set(set), u8(dk), u8(ct), C.size_t(n),
				C.zkgpu_backend(backend), u8(key), u8(status)))
		})
		if err != nil {
			return nil, err
		}
	}
	keys := cabi.Split(key, n, sz.SharedKey)
	out := make([]Decapsulation, n)
	for i := range out {
		if e := cabi.ItemError(bad, status, i, "decapsulation key's stored H(ek) does not match its ek"); e != nil {
			out[i].Err = e
			continue
		}
		out[i].SharedKey = keys[i]
	}
	return out, nil
}

func u8(b []byte) *C.uint8_t { return (*C.uint8_t)(cabi.Ptr(b)) }
