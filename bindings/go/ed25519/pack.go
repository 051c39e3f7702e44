package ed25519

import (
	"crypto/ed25519"
	"fmt"
	"unsafe"

	"zkgpu"
	"zkgpu/internal/cabi"
	"zkgpu/internal/hostbuf"
)

// packChunk is how many items one goroutine packs at a time. Why in parallel: copying an item
// (key, signature, a 64-byte message from three separate Go allocations) costs ~35 ns on one
// core (BenchmarkPack on the development VM), and a batch of 4096 takes the GPU only ~0.6 ms: on
// one core the copy alone would add a fifth. Why this small: so that 4096 items spread over 16
// goroutines (~9 us of copying each).
const packChunk = 256

// packed is one batch in the C ABI's packed layout (zkgpu_ed25519_verify_batch_packed), in one C
// buffer kept by internal/hostbuf between calls: keys 32n | signatures 64n | offsets 8(n+1) |
// verdicts n | messages.
//
// Why C memory: the batch arrives as n separate Go slices, which C may not be handed as an array
// of pointers (cgo forbids Go pointers in memory passed to C, and Go 1.19 has no runtime.Pinner),
// so the bytes are copied; why one kept buffer: no allocation per item, usually none per call,
// and no fresh pages to fault in (a 2^20 batch is ~170 MB).
type packed struct {
	buf hostbuf.Buf
	n   int
}

func (p *packed) at(off uintptr) unsafe.Pointer { return unsafe.Add(p.buf.P, off) }
func (p *packed) keys() unsafe.Pointer          { return p.at(0) }
func (p *packed) sigs() unsafe.Pointer          { return p.at(uintptr(32 * p.n)) }
func (p *packed) offsets() unsafe.Pointer       { return p.at(uintptr(96 * p.n)) }
func (p *packed) verdicts() unsafe.Pointer      { return p.at(uintptr(104*p.n + 8)) }
func (p *packed) messages() unsafe.Pointer      { return p.at(uintptr(105*p.n + 8)) }

// wellFormed is whether item i has a 32-byte key and a 64-byte signature. The others are packed
// as zeros with an empty message and reported false whatever the library says of the zeros.
func wellFormed(pubs []ed25519.PublicKey, sigs [][]byte, i int) bool {
	return len(pubs[i]) == 32 && len(sigs[i]) == 64
}

// pack copies the batch into C memory on up to GOMAXPROCS goroutines: a first pass sums each
// chunk's message bytes (where its messages start), the second copies.
func pack(pubs []ed25519.PublicKey, msgs, sigs [][]byte) (*packed, error) {
	n := len(pubs)
	chunks := (n + packChunk - 1) / packChunk
	starts := make([]uint64, chunks+1)
	cabi.ForChunks(chunks, func(c int) {
		var bytes uint64
		for i := c * packChunk; i < n && i < (c+1)*packChunk; i++ {
			if wellFormed(pubs, sigs, i) {
				bytes += uint64(len(msgs[i]))
			}
		}
		starts[c+1] = bytes
	})
	for c := 0; c < chunks; c++ {
		starts[c+1] += starts[c]
	}
	total := uintptr(105*n+8) + uintptr(starts[chunks])
	buf, ok := hostbuf.Get(total)
	if !ok {
		return nil, &zkgpu.Error{Status: zkgpu.StatusOutOfMemory, Message: fmt.Sprintf("cannot allocate %d bytes to copy the batch into", total)}
	}
	p := &packed{buf: buf, n: n}
	keys := unsafe.Slice((*byte)(p.keys()), 32*n)
	sigBytes := unsafe.Slice((*byte)(p.sigs()), 64*n)
	offs := unsafe.Slice((*uint64)(p.offsets()), n+1)
	data := unsafe.Slice((*byte)(p.messages()), starts[chunks])
	cabi.ForChunks(chunks, func(c int) {
		pos := starts[c]
		for i := c * packChunk; i < n && i < (c+1)*packChunk; i++ {
			offs[i] = pos
			k, s := keys[32*i:32*i+32], sigBytes[64*i:64*i+64]
			if !wellFormed(pubs, sigs, i) {
				for j := range k {
					k[j] = 0
				}
				for j := range s {
					s[j] = 0
				}
				continue
			}
			copy(k, pubs[i])
			copy(s, sigs[i])
			pos += uint64(copy(data[pos:], msgs[i]))
		}
	})
	offs[n] = starts[chunks]
	return p, nil
}

// resultsInto writes the verdicts (1 valid, anything else invalid) into out[:p.n] as bools, false
// for a malformed item (pubs and sigs: the items p was packed from); on goroutines for big
// batches.
func (p *packed) resultsInto(out []bool, pubs []ed25519.PublicKey, sigs [][]byte) {
	v := unsafe.Slice((*byte)(p.verdicts()), p.n)
	const chunk = 1 << 14
	cabi.ForChunks((p.n+chunk-1)/chunk, func(c int) {
		for i := c * chunk; i < p.n && i < (c+1)*chunk; i++ {
			out[i] = v[i] == 1 && wellFormed(pubs, sigs, i)
		}
	})
}

func (p *packed) free() {
	hostbuf.Put(p.buf)
	p.buf = hostbuf.Buf{}
}
