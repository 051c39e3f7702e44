// Package mldsa runs batches of ML-DSA (FIPS 204) operations with the zkgpu library: key
// generation from seeds, signing and verification, on the GPU from the library's crossovers
// (keygen 1024 items, sign and verify 256) under zkgpu.Auto and on all CPU cores below them.
//
// Keys and signatures are the standard byte encodings: the public key pk, the expanded secret
// key sk, and the 32-byte seed xi from which KeyGen derives both. Signing is the pure ML-DSA.Sign
// of FIPS 204 with a context string (or the "external mu" interface, SignOptions.ExternalMu).
// Per-item failures are per-item results (Err wrapping zkgpu.ErrInvalidInput, or false from
// Verify) and never change another item's result; the call's own error is for the call as a
// whole.
package mldsa

/*
#cgo pkg-config: zkgpu
#include <zkgpu.h>
*/
import "C"

import (
	"crypto/rand"

	"zkgpu"
	"zkgpu/internal/cabi"
	"zkgpu/internal/enum"
)

// ParameterSet is one of the three FIPS 204 parameter sets (zkgpu_mldsa_set).
type ParameterSet int32

const (
	MLDSA44 ParameterSet = C.ZKGPU_MLDSA_44
	MLDSA65 ParameterSet = C.ZKGPU_MLDSA_65
	MLDSA87 ParameterSet = C.ZKGPU_MLDSA_87
)

func (s ParameterSet) String() string {
	return enum.Name(s, []string{MLDSA44: "ML-DSA-44", MLDSA65: "ML-DSA-65", MLDSA87: "ML-DSA-87"}, "ParameterSet(%d)")
}

// SeedSize is the length of a KeyGen seed xi, in every parameter set.
const SeedSize = 32

// Sizes are a parameter set's byte lengths (zkgpu_mldsa_sizes).
type Sizes struct {
	PublicKey  int // pk
	SecretKey  int // the expanded sk
	Signature  int
	Seed       int // xi: 32
	Rnd        int // hedged signing's randomness: 32
	Mu         int // external mu: 64
	MaxContext int // 255
}

// Sizes asks the library for the set's sizes; an unknown set is zkgpu.ErrInvalidArgument.
func (s ParameterSet) Sizes() (Sizes, error) {
	var c C.zkgpu_mldsa_sizes
	err := cabi.Call(func() int32 { return int32(C.zkgpu_mldsa_sizes_of(C.zkgpu_mldsa_set(s), &c)) })
	if err != nil {
		return Sizes{}, err
	}
	return Sizes{int(c.public_key), int(c.secret_key), int(c.signature), int(c.seed), int(c.rnd),
		int(c.mu), int(c.max_context)}, nil
}

// KeyPair is one item of KeyGen: the seed it came from and the keys, or Err.
type KeyPair struct {
	Seed      []byte
	PublicKey []byte
	SecretKey []byte
	Err       error
}

// GenerateKeys draws n seeds from crypto/rand and derives their key pairs. Keep Seed (32 bytes)
// to store a key compactly: KeyGen re-derives the same keys from it.
func GenerateKeys(set ParameterSet, n int, backend zkgpu.Backend) ([]KeyPair, error) {
	return cabi.GenerateKeys(n, SeedSize, func(seeds [][]byte) ([]KeyPair, error) { return KeyGen(set, seeds, backend) })
}

// KeyGen is ML-DSA.KeyGen_internal(xi) for each 32-byte seed xi.
func KeyGen(set ParameterSet, seeds [][]byte, backend zkgpu.Backend) ([]KeyPair, error) {
	sz, err := cabi.CheckSet(backend, set.Sizes)
	if err != nil {
		return nil, err
	}
	return cabi.KeyGen(seeds, sz.Seed, sz.PublicKey, sz.SecretKey, func(in, pk, sk []byte) int32 {
		return int32(C.zkgpu_mldsa_keygen_batch(C.zkgpu_mldsa_set(set), u8(in), C.size_t(len(seeds)),
			C.zkgpu_backend(backend), u8(pk), u8(sk)))
	}, func(seed, pk, sk []byte, err error) KeyPair {
		return KeyPair{Seed: seed, PublicKey: pk, SecretKey: sk, Err: err}
	})
}

// SignItem is one message to sign.
type SignItem struct {
	SecretKey []byte // the expanded sk
	Message   []byte // M, or the 64-byte mu under SignOptions.ExternalMu
	Context   []byte // at most 255 bytes; ignored under ExternalMu
	// Rnd is the 32 bytes of hedged signing's randomness. nil: fresh bytes from crypto/rand (FIPS
	// 204's default, hedged), or none (deterministic signing, rnd = 0^32) under
	// SignOptions.Deterministic. Empty but not nil: this item is signed deterministically.
	Rnd []byte
}

// SignOptions is what travels with one Sign call. The zero value signs hedged on zkgpu.Auto.
type SignOptions struct {
	Backend zkgpu.Backend
	// Deterministic signs the items that have no Rnd deterministically instead of drawing one.
	Deterministic bool
	// ExternalMu: every Message is mu = H(tr || M') itself (FIPS 204's external-mu interface).
	ExternalMu bool
}

// SignResult is one item of Sign: the signature, or Err.
type SignResult struct {
	Signature []byte
	Err       error
}

// Sign is ML-DSA.Sign for each item. Item errors: a secret key, Rnd or mu of the wrong length, a
// context over 255 bytes, or a secret key whose s1/s2 coefficients are out of range.
func Sign(set ParameterSet, items []SignItem, opts SignOptions) ([]SignResult, error) {
	sz, err := cabi.CheckSet(opts.Backend, set.Sizes)
	if err != nil {
		return nil, err
	}
	n := len(items)
	if n == 0 {
		return []SignResult{}, nil
	}
	cols := [4][][]byte{make([][]byte, n), make([][]byte, n), make([][]byte, n), make([][]byte, n)}
	var fresh []byte // one crypto/rand read for every item that needs randomness
	if !opts.Deterministic {
		need := 0
		for i := range items {
			if items[i].Rnd == nil {
				need++
			}
		}
		fresh = make([]byte, need*sz.Rnd)
		if _, err := rand.Read(fresh); err != nil {
			return nil, err
		}
	}
	for i, it := range items {
		cols[0][i], cols[1][i], cols[2][i], cols[3][i] = it.SecretKey, it.Message, it.Context, it.Rnd
		if it.Rnd == nil && !opts.Deterministic {
			cols[3][i], fresh = fresh[:sz.Rnd:sz.Rnd], fresh[sz.Rnd:]
		}
	}
	p, err := cabi.Pack(cols[:], n, 0)
	if err != nil {
		return nil, err
	}
	defer p.Free()
	sig := make([]byte, n*sz.Signature)
	status := make([]byte, n)
	err = cabi.Call(func() int32 {
		return int32(C.zkgpu_mldsa_sign_batch(C.zkgpu_mldsa_set(set),
			ptrs(p, 0), lens(p, 0), ptrs(p, 1), lens(p, 1), ptrs(p, 2), lens(p, 2), ptrs(p, 3), lens(p, 3),
			C.size_t(n), boolInt(opts.ExternalMu), C.zkgpu_backend(opts.Backend), u8(sig), u8(status)))
	})
	if err != nil {
		return nil, err
	}
	sigs := cabi.Split(sig, n, sz.Signature)
	out := make([]SignResult, n)
	for i := range out {
		if status[i] != C.ZKGPU_PQ_OK {
			out[i].Err = signRejection(items[i], cols[3][i], sz, opts.ExternalMu)
			continue
		}
		out[i].Signature = sigs[i]
	}
	return out, nil
}

// signRejection says why the library rejected an item. Why here: the C ABI reports only that an
// item is invalid, and the length rules are few and documented, so the binding names the one
// that applies; what is left is the key's content.
func signRejection(it SignItem, rnd []byte, sz Sizes, externalMu bool) error {
	switch {
	case len(it.SecretKey) != sz.SecretKey:
		return cabi.ItemErrorf("secret key is %d bytes, want %d", len(it.SecretKey), sz.SecretKey)
	case len(rnd) != 0 && len(rnd) != sz.Rnd:
		return cabi.ItemErrorf("rnd is %d bytes, want %d (or nil)", len(rnd), sz.Rnd)
	case externalMu && len(it.Message) != sz.Mu:
		return cabi.ItemErrorf("mu is %d bytes, want %d", len(it.Message), sz.Mu)
	case !externalMu && len(it.Context) > sz.MaxContext:
		return cabi.ItemErrorf("context is %d bytes, at most %d", len(it.Context), sz.MaxContext)
	}
	return cabi.ItemErrorf("secret key has s1 or s2 coefficients out of range")
}

// VerifyItem is one signature to check.
type VerifyItem struct {
	PublicKey []byte
	Message   []byte // M, or the 64-byte mu under VerifyOptions.ExternalMu
	Context   []byte // at most 255 bytes; ignored under ExternalMu
	Signature []byte
}

// VerifyOptions is what travels with one Verify call. The zero value is zkgpu.Auto.
type VerifyOptions struct {
	Backend    zkgpu.Backend
	ExternalMu bool // every Message is mu itself
}

// Verify is ML-DSA.Verify for each item: true iff the signature is valid for the public key,
// message and context. Wrong lengths and contexts over 255 bytes are false, not errors.
func Verify(set ParameterSet, items []VerifyItem, opts VerifyOptions) ([]bool, error) {
	if _, err := cabi.CheckSet(opts.Backend, set.Sizes); err != nil {
		return nil, err
	}
	n := len(items)
	if n == 0 {
		return []bool{}, nil
	}
	cols := [4][][]byte{make([][]byte, n), make([][]byte, n), make([][]byte, n), make([][]byte, n)}
	for i, it := range items {
		cols[0][i], cols[1][i], cols[2][i], cols[3][i] = it.PublicKey, it.Message, it.Context, it.Signature
	}
	p, err := cabi.Pack(cols[:], n, uintptr(n))
	if err != nil {
		return nil, err
	}
	defer p.Free()
	verdicts := (*C.uint8_t)(p.Extra())
	err = cabi.Call(func() int32 {
		return int32(C.zkgpu_mldsa_verify_batch(C.zkgpu_mldsa_set(set),
			ptrs(p, 0), lens(p, 0), ptrs(p, 1), lens(p, 1), ptrs(p, 2), lens(p, 2), ptrs(p, 3), lens(p, 3),
			C.size_t(n), boolInt(opts.ExternalMu), C.zkgpu_backend(opts.Backend), verdicts))
	})
	if err != nil {
		return nil, err
	}
	return p.Verdicts(n), nil
}

func ptrs(p *cabi.Packed, j int) **C.uint8_t { return (**C.uint8_t)(p.Ptrs(j)) }
func lens(p *cabi.Packed, j int) *C.size_t   { return (*C.size_t)(p.Lens(j)) }
func u8(b []byte) *C.uint8_t                 { return (*C.uint8_t)(cabi.Ptr(b)) }

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
