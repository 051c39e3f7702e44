package ed25519

import (
	"crypto/ed25519"
	"fmt"
	"runtime/cgo"
	"unsafe"

	"zkgpu"
	"zkgpu/internal/cabi"
	"zkgpu/internal/hostbuf"
)

// packChunk is how many items one goroutine passes over at a time when the offsets of a large
// batch are computed in parallel (newFilled). Why not smaller: every goroutine started is a
// scheduler wake-up of several microseconds.
const packChunk = 1024

// serialOffsets: below this many items the offsets are one pass on the calling goroutine (a few
// ns an item), cheaper than starting goroutines for it.
const serialOffsets = 1 << 14

// filled is one BatchVerifyWith call's batch as zkgpu_ed25519_verify_batch_fill sees it: the
// message offsets up front (in C memory kept by internal/hostbuf between calls, so no fresh pages
// for a 2^20 batch's 8 MB), the bytes copied by the library's callback (fill, through the exported
// zkgpuGoEd25519Fill) straight into its buffers, chunk by chunk: on the GPU into pinned staging
// while the GPU verifies the chunk before.
//
// Why a copy at all: the batch arrives as n separate Go slices, which C may not be handed as an
// array of pointers (cgo forbids Go pointers in memory passed to C, and Go 1.19 has no
// runtime.Pinner). Why the callback: the library copies each chunk once anyway, so the binding's
// copy takes the place of the library's instead of coming before it.
type filled struct {
	pubs       []ed25519.PublicKey
	msgs, sigs [][]byte
	offs       hostbuf.Buf
	malformed  []int // the items with a key or signature of the wrong length, in order
}

// wellFormed is whether item i has a 32-byte key and a 64-byte signature. The others are
// written as zeros with an empty message and reported false whatever the library says of the
// zeros.
func wellFormed(pubs []ed25519.PublicKey, sigs [][]byte, i int) bool {
	return len(pubs[i]) == 32 && len(sigs[i]) == 64
}

// chunkRange is the items of chunk c (of size items) of [lo, hi).
func chunkRange(c, size, lo, hi int) (int, int) {
	a, b := lo+c*size, lo+(c+1)*size
	if b > hi {
		b = hi
	}
	return a, b
}

// newFilled computes the offsets and notes the malformed items: in one pass below serialOffsets
// items, else on up to GOMAXPROCS goroutines in two (each chunk's message bytes, then the
// offsets from the chunks' starts, noting the chunk's malformed items).
func newFilled(pubs []ed25519.PublicKey, msgs, sigs [][]byte) (*filled, error) {
	n := len(pubs)
	buf, ok := hostbuf.Get(uintptr(8 * (n + 1)))
	if !ok {
		return nil, &zkgpu.Error{Status: zkgpu.StatusOutOfMemory, Message: fmt.Sprintf("cannot allocate %d bytes for the message offsets", 8*(n+1))}
	}
	f := &filled{pubs: pubs, msgs: msgs, sigs: sigs, offs: buf}
	offs := f.offsets()
	// offsetsOf writes offs[lo:hi] from pos, appends the malformed items to bad, and returns
	// where the item after hi starts.
	offsetsOf := func(lo, hi int, pos uint64, bad *[]int) uint64 {
		for i := lo; i < hi; i++ {
			offs[i] = pos
			if wellFormed(pubs, sigs, i) {
				pos += uint64(len(msgs[i]))
			} else {
				*bad = append(*bad, i)
			}
		}
		return pos
	}
	if n < serialOffsets {
		offs[n] = offsetsOf(0, n, 0, &f.malformed)
		return f, nil
	}
	chunks := (n + packChunk - 1) / packChunk
	starts := make([]uint64, chunks+1)
	cabi.ForChunks(chunks, func(c int) {
		var bytes uint64
		lo, hi := chunkRange(c, packChunk, 0, n)
		for i := lo; i < hi; i++ {
			if wellFormed(pubs, sigs, i) {
				bytes += uint64(len(msgs[i]))
			}
		}
		starts[c+1] = bytes
	})
	for c := 0; c < chunks; c++ {
		starts[c+1] += starts[c]
	}
	bad := make([][]int, chunks)
	cabi.ForChunks(chunks, func(c int) {
		lo, hi := chunkRange(c, packChunk, 0, n)
		offsetsOf(lo, hi, starts[c], &bad[c])
	})
	offs[n] = starts[chunks]
	for _, b := range bad {
		f.malformed = append(f.malformed, b...)
	}
	return f, nil
}

func (f *filled) offsets() []uint64 { return unsafe.Slice((*uint64)(f.offs.P), len(f.pubs)+1) }

// fill writes items [first, first+count) in the library's layout: keys 32 bytes each at keys,
// signatures 64 bytes each at sigs, messages back to back at msgs (from offsets[first]); a
// malformed item as a zero key and signature with no message. In one loop: the library calls
// it for pieces of a chunk on several of its threads at once (zkgpu.h), threads that are awake
// already, where goroutines started here would each be a scheduler wake-up inside the call.
func (f *filled) fill(first, count int, keys, sigs, msgs unsafe.Pointer) {
	offs := f.offsets()
	base := offs[first]
	k := unsafe.Slice((*[32]byte)(keys), count)
	s := unsafe.Slice((*[64]byte)(sigs), count)
	m := unsafe.Slice((*byte)(msgs), offs[first+count]-base)
	for i := first; i < first+count; i++ {
		j := i - first
		if !wellFormed(f.pubs, f.sigs, i) {
			k[j], s[j] = [32]byte{}, [64]byte{}
			continue
		}
		// Fixed-size array copies: inline moves, no memmove call per field.
		k[j], s[j] = *(*[32]byte)(f.pubs[i]), *(*[64]byte)(f.sigs[i])
		copy(m[offs[i]-base:offs[i+1]-base], f.msgs[i])
	}
}

// verify runs the library on the batch, the verdicts straight into out (len n): the library
// writes 0 or 1 per item (zkgpu.h), a Go bool's two bytes. Malformed items become false after.
func (f *filled) verify(out []bool, opts Options) error {
	h := cgo.NewHandle(f)
	defer h.Delete()
	// The callback gets the handle through a pointer to this word: Go memory holding no Go
	// pointer, which cgo lets C hold for the call.
	hv := uintptr(h)
	err := cabi.Call(func() int32 {
		return verifyFilled(f.offsets(), unsafe.Pointer(&hv), opts, out)
	})
	if err != nil {
		return err
	}
	for _, i := range f.malformed {
		out[i] = false
	}
	return nil
}

func (f *filled) free() {
	hostbuf.Put(f.offs)
	f.offs = hostbuf.Buf{}
}

// fillFromHandle is the exported callback's body: the batch behind the handle word at ctx.
func fillFromHandle(ctx unsafe.Pointer, first, count int, keys, sigs, msgs unsafe.Pointer) {
	cgo.Handle(*(*uintptr)(ctx)).Value().(*filled).fill(first, count, keys, sigs, msgs)
}
