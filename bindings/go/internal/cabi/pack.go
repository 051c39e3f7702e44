package cabi

/*
#include <stddef.h>
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"zkgpu"
	"zkgpu/internal/hostbuf"
)

// Packed is one batch in one C buffer: for each of k columns an array of n pointers and an array
// of n lengths (size_t), the `const uint8_t *const *` / `const size_t *` arguments the C ABI
// takes, then `extra` bytes for the caller's outputs, then a copy of every item's bytes.
//
// Why a copy in C memory: the C ABI takes arrays of pointers, cgo forbids passing C any Go memory
// that holds Go pointers or storing Go pointers in C memory, and Go 1.19 has no runtime.Pinner,
// so the pointers must point at C memory. Why one buffer, kept by internal/hostbuf between calls:
// no allocation per item, usually none per call, and no fresh pages to fault in.
type Packed struct {
	buf   hostbuf.Buf
	base  unsafe.Pointer
	n, k  int
	extra uintptr // offset of the extra region
}

// Bytes views a slice of a named byte-slice type (ed25519.PublicKey, ...) as [][]byte. Why this
// is sound: T's underlying type is []byte, so []T and [][]byte have the same memory layout.
func Bytes[T ~[]byte](s []T) [][]byte { return *(*[][]byte)(unsafe.Pointer(&s)) }

// packChunk is how many items one goroutine copies at a time. Why copy in parallel at all: the
// copy of an Ed25519 item costs ~30-45 ns on one core of the development VM (go test -bench Pack,
// docs/go.md), close to the ~55 ns the GPU takes to verify it (17-18 M/s end to end,
// BENCHMARKS.md), and a batch of 4096 takes the GPU only ~0.6 ms: copied on one core it would
// add a quarter to that. Why this small: so that 4096 items already spread over 8 goroutines.
const packChunk = 512

// Pack copies cols (k columns of n items each; every column must have n items) into C memory.
// The caller frees it with Free.
func Pack(cols [][][]byte, n int, extra uintptr) (*Packed, error) {
	k := len(cols)
	chunks := (n + packChunk - 1) / packChunk
	// Where each chunk's bytes start: a first, cheap pass over the lengths.
	starts := make([]uintptr, chunks)
	var total uintptr
	for c := 0; c < chunks; c++ {
		starts[c] = total
		end := min(n, (c+1)*packChunk)
		for _, col := range cols {
			for _, b := range col[c*packChunk : end] {
				total += uintptr(len(b))
			}
		}
	}
	ptrSize := unsafe.Sizeof(uintptr(0))
	head := uintptr(2*k*n) * ptrSize
	extraOff := head
	dataOff := (extraOff + extra + ptrSize - 1) &^ (ptrSize - 1)
	buf, ok := hostbuf.Get(dataOff + total)
	if !ok {
		return nil, &zkgpu.Error{Status: zkgpu.StatusOutOfMemory, Message: fmt.Sprintf("cannot allocate %d bytes to copy the batch into", dataOff+total)}
	}
	base := buf.P
	p := &Packed{buf: buf, base: base, n: n, k: k, extra: extraOff}
	dataBase := uintptr(base) + dataOff
	// Pointer and length arrays are written as uintptr: they hold C addresses and sizes, so no
	// write barrier is wanted (size_t is pointer-sized on every platform cgo supports).
	words := unsafe.Slice((*uintptr)(base), 2*k*n)
	dataP := unsafe.Add(base, dataOff)
	// Within a chunk the bytes go column by column, so the inner loop walks one source column and
	// one pointer array at a time (measured a little faster than item by item).
	fill := func(c int) {
		lo, hi := c*packChunk, min(n, (c+1)*packChunk)
		off := starts[c]
		for j, col := range cols {
			ptrs := words[j*n+lo : j*n+hi]
			lens := words[(k+j)*n+lo : (k+j)*n+hi]
			for i, b := range col[lo:hi] {
				l := uintptr(len(b))
				copy(unsafe.Slice((*byte)(unsafe.Add(dataP, off)), l), b)
				ptrs[i] = dataBase + off
				lens[i] = l
				off += l
			}
		}
	}
	ForChunks(chunks, fill)
	return p, nil
}

// ForChunks runs f(0) .. f(chunks-1), on up to GOMAXPROCS goroutines that take the next chunk as
// they finish one (chunks may cost different amounts), or on the calling goroutine when one
// worker would do.
func ForChunks(chunks int, f func(c int)) {
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for c := 0; c < chunks; c++ {
			f(c)
		}
		return
	}
	var next int64 = -1
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for c := int(atomic.AddInt64(&next, 1)); c < chunks; c = int(atomic.AddInt64(&next, 1)) {
				f(c)
			}
		}()
	}
	wg.Wait()
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Ptrs is column j's pointer array (const uint8_t *const *).
func (p *Packed) Ptrs(j int) unsafe.Pointer {
	return unsafe.Add(p.base, uintptr(j*p.n)*unsafe.Sizeof(uintptr(0)))
}

// Lens is column j's length array (const size_t *).
func (p *Packed) Lens(j int) unsafe.Pointer {
	return unsafe.Add(p.base, uintptr((p.k+j)*p.n)*unsafe.Sizeof(uintptr(0)))
}

// Extra is the caller's region of `extra` bytes (uninitialised).
func (p *Packed) Extra() unsafe.Pointer { return unsafe.Add(p.base, p.extra) }

// Verdicts reads the first n bytes of the extra region as the C ABI's verdicts (1 valid, 0
// invalid). Why not hand C a []bool: a byte other than 0 or 1 in a Go bool is undefined, and
// here anything but 1 is false.
func (p *Packed) Verdicts(n int) []bool {
	out := make([]bool, n)
	for i, v := range unsafe.Slice((*byte)(p.Extra()), n) {
		out[i] = v == 1
	}
	return out
}

// Free hands the memory back (to internal/hostbuf, which keeps it for the next call); the
// Packed is unusable afterwards.
func (p *Packed) Free() {
	hostbuf.Put(p.buf)
	p.buf, p.base = hostbuf.Buf{}, nil
}

// Why: the length arrays are written as uintptr and read by C as size_t.
func init() {
	if unsafe.Sizeof(C.size_t(0)) != unsafe.Sizeof(uintptr(0)) {
		panic("zkgpu: size_t is not pointer-sized on this platform")
	}
}
