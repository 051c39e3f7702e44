// Package ed25519 verifies batches of Ed25519 signatures (RFC 8032, pure Ed25519) with the zkgpu
// library: on the GPU above the library's crossover, on all CPU cores below it.
//
// BatchVerify(pubs, msgs, sigs)[i] == crypto/ed25519.Verify(pubs[i], msgs[i], sigs[i]) for every
// i: the library's Openssl rule set is the one Go's crypto/ed25519 follows (cofactorless
// equation, S < L, non-canonical keys accepted, R compared as bytes; docs/ed25519.md).
// BatchVerifyWith chooses the rule set and the backend.
package ed25519

/*
#cgo pkg-config: zkgpu
#include <zkgpu.h>

extern void zkgpuGoEd25519Fill(void*, size_t, size_t, uint8_t*, uint8_t*, uint8_t*);

// The fill call with the exported Go callback (fill_export.go), whose address Go cannot take.
static zkgpu_status zkgpu_go_ed25519_verify_filled(const uint64_t* offsets, size_t n, void* ctx,
                                                   zkgpu_ed25519_mode mode, zkgpu_backend backend,
                                                   uint8_t* verdicts) {
	return zkgpu_ed25519_verify_batch_fill(offsets, n, zkgpuGoEd25519Fill, ctx, mode, backend, verdicts);
}
*/
import "C"

import (
	"crypto/ed25519"
	"fmt"
	"unsafe"

	"zkgpu"
	"zkgpu/internal/cabi"
	"zkgpu/internal/enum"
)

// Mode is the rule set a signature is judged by (zkgpu_ed25519_mode; table in docs/ed25519.md).
type Mode int32

const (
	// Openssl: OpenSSL, Go crypto/ed25519, BoringSSL, ed25519-dalek verify(). The default.
	Openssl Mode = C.ZKGPU_ED25519_OPENSSL
	// Strict: ed25519-dalek verify_strict() (Solana, XRPL): Openssl, and small-order A or R are
	// rejected.
	Strict Mode = C.ZKGPU_ED25519_STRICT
	// Zip215: ZIP-215 (ed25519-zebra, ed25519-consensus): the cofactored equation
	// [8]([S]B - [k]A - R) = O, non-canonical R accepted. Every signature Openssl accepts is
	// accepted here too.
	Zip215 Mode = C.ZKGPU_ED25519_ZIP215
)

func (m Mode) String() string {
	return enum.Name(m, []string{Openssl: "openssl", Strict: "strict", Zip215: "zip215"}, "Mode(%d)")
}

// Options is what travels with one BatchVerifyWith call. The zero value is Openssl on Auto.
type Options struct {
	Mode    Mode
	Backend zkgpu.Backend
}

// BatchVerify reports for each i whether sigs[i] is a valid signature of msgs[i] by pubs[i],
// exactly as crypto/ed25519.Verify does: a key or signature of the wrong length is false. It uses
// the GPU from the library's crossover (ED25519_GPU_CROSSOVER_ITEMS, 128 signatures) when one is
// usable, and the CPU otherwise. It panics when the three slices differ in length, like the API
// it mirrors; it also panics if the library fails on both the chosen backend and then the CPU
// (only when memory runs out), since it has no error to return.
func BatchVerify(pubs []ed25519.PublicKey, msgs [][]byte, sigs [][]byte) []bool {
	if len(pubs) != len(msgs) || len(pubs) != len(sigs) {
		panic(fmt.Sprintf("zkgpu/ed25519: BatchVerify: %d public keys, %d messages, %d signatures", len(pubs), len(msgs), len(sigs)))
	}
	ok, err := BatchVerifyWith(pubs, msgs, sigs, Options{})
	if err != nil {
		// Why a CPU retry: Auto may have picked a GPU that then failed (a CUDA error, device memory);
		// the CPU gives the same verdicts.
		ok, err = BatchVerifyWith(pubs, msgs, sigs, Options{Backend: zkgpu.Cpu})
	}
	if err != nil {
		panic("zkgpu/ed25519: BatchVerify: " + err.Error())
	}
	return ok
}

// BatchVerifyWith is BatchVerify with a rule set and a backend. A key or signature of the wrong
// length is an invalid item (false), not an error. Errors: *zkgpu.Error, errors.Is-comparable
// with zkgpu.ErrInvalidArgument (slices of different lengths, a Mode or Backend outside the
// enums), zkgpu.ErrUnavailable (Cuda without a usable GPU), zkgpu.ErrOutOfMemory,
// zkgpu.ErrCudaError, zkgpu.ErrInternal. A batch of zero items returns an empty slice.
//
// The batch is copied once, on GOMAXPROCS goroutines for large batches, by the library's callback
// straight into its buffers (zkgpu_ed25519_verify_batch_fill): on the GPU a chunk at a time into
// pinned staging, while the GPU verifies the chunk before (pack.go).
func BatchVerifyWith(pubs []ed25519.PublicKey, msgs [][]byte, sigs [][]byte, opts Options) ([]bool, error) {
	n := len(pubs)
	if len(msgs) != n || len(sigs) != n {
		return nil, cabi.Errorf("%d public keys, %d messages, %d signatures", n, len(msgs), len(sigs))
	}
	if err := checkOptions(opts); err != nil {
		return nil, err
	}
	if n == 0 {
		return []bool{}, nil
	}
	f, err := newFilled(pubs, msgs, sigs)
	if err != nil {
		return nil, err
	}
	defer f.free()
	out := make([]bool, n)
	if err := f.verify(out, opts); err != nil {
		return nil, err
	}
	return out, nil
}

// verifyFilled is the C call behind filled.verify: ctx reaches the callback, the verdicts are
// written into out's bytes.
func verifyFilled(offsets []uint64, ctx unsafe.Pointer, opts Options, out []bool) int32 {
	return int32(C.zkgpu_go_ed25519_verify_filled((*C.uint64_t)(unsafe.Pointer(&offsets[0])), C.size_t(len(out)), ctx,
		C.zkgpu_ed25519_mode(opts.Mode), C.zkgpu_backend(opts.Backend), (*C.uint8_t)(unsafe.Pointer(&out[0]))))
}

// BatchVerifyPacked verifies a batch that is already packed, with no copy: n = len(keys)/32
// keys, 64-byte signatures back to back in sigs, the messages back to back in msgs, item i's
// message msgs[offsets[i]:offsets[i+1]]; offsets has n+1 nondecreasing entries from 0 to
// len(msgs). The slices go to the library as they are (they hold no Go pointers, so cgo allows
// it). Errors as BatchVerifyWith's, and ErrInvalidArgument for arrays that disagree or offsets
// that decrease (naming the entry).
func BatchVerifyPacked(keys, sigs, msgs []byte, offsets []uint64, opts Options) ([]bool, error) {
	if err := checkOptions(opts); err != nil {
		return nil, err
	}
	if len(keys)%32 != 0 {
		return nil, cabi.Errorf("%d key bytes are not whole 32-byte keys", len(keys))
	}
	n := len(keys) / 32
	if len(sigs) != 64*n {
		return nil, cabi.Errorf("%d signature bytes for %d keys (want 64 each)", len(sigs), n)
	}
	if len(offsets) != n+1 && !(n == 0 && len(offsets) == 0) {
		return nil, cabi.Errorf("%d message offsets for %d items (want n+1)", len(offsets), n)
	}
	if n == 0 {
		if len(msgs) != 0 {
			return nil, cabi.Errorf("no items but %d message bytes", len(msgs))
		}
		return []bool{}, nil
	}
	// The library reads msgs[:offsets[n]]: it must be the slice's length.
	if offsets[n] != uint64(len(msgs)) {
		return nil, cabi.Errorf("offsets[%d] = %d but msgs has %d bytes", n, offsets[n], len(msgs))
	}
	verdicts := make([]byte, n)
	err := cabi.Call(func() int32 {
		return int32(C.zkgpu_ed25519_verify_batch_packed(
			(*C.uint8_t)(cabi.Ptr(keys)), (*C.uint8_t)(cabi.Ptr(sigs)), (*C.uint8_t)(cabi.Ptr(msgs)),
			(*C.uint64_t)(unsafe.Pointer(&offsets[0])), C.size_t(n), C.zkgpu_ed25519_mode(opts.Mode),
			C.zkgpu_backend(opts.Backend), (*C.uint8_t)(cabi.Ptr(verdicts))))
	})
	if err != nil {
		return nil, err
	}
	ok := make([]bool, n)
	for i, v := range verdicts {
		ok[i] = v == 1
	}
	return ok, nil
}

func checkOptions(opts Options) error {
	if opts.Mode != Openssl && opts.Mode != Strict && opts.Mode != Zip215 {
		return cabi.Errorf("ed25519 mode %d is not Openssl, Strict or Zip215", int32(opts.Mode))
	}
	return cabi.CheckBackend(opts.Backend)
}
