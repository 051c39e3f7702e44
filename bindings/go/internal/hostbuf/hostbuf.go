// Package hostbuf keeps the C memory the binding copies batches into, from one call to the next.
//
// Why keep it: a fresh allocation of a large batch (2^20 Ed25519 items, ~200 MB) is fresh pages
// (glibc serves it with mmap), and faulting them in cost ~150 ns an item on the development VM
// (docs/go.md), more than twice what the GPU takes to verify the item. Kept buffers are touched pages. The library
// does the same with its pinned staging buffers (grow-only, released by
// zkgpu_release_gpu_caches).
package hostbuf

/*
#include <stdlib.h>
*/
import "C"

import (
	"sync"
	"unsafe"
)

// maxFree is how many buffers are kept: enough for a few goroutines calling at once, few enough
// that the memory kept stays a small multiple of the largest batch.
const maxFree = 4

// round is the allocation granule, so that batches of nearly the same size share a buffer.
const round = 1 << 16

// Buf is C memory of at least the size asked for.
type Buf struct {
	P    unsafe.Pointer
	size uintptr
}

var pool struct {
	sync.Mutex
	free []Buf
}

// Get returns a buffer of at least size bytes (never NULL), or ok = false when C memory runs out.
// Its contents are whatever the last user left.
func Get(size uintptr) (b Buf, ok bool) {
	if size == 0 {
		size = 1
	}
	pool.Lock()
	best := -1
	for i, f := range pool.free {
		if f.size >= size && (best < 0 || f.size < pool.free[best].size) {
			best = i
		}
	}
	if best >= 0 {
		b = pool.free[best]
		pool.free = append(pool.free[:best], pool.free[best+1:]...)
	}
	pool.Unlock()
	if best >= 0 {
		return b, true
	}
	size = (size + round - 1) &^ (round - 1)
	p := C.malloc(C.size_t(size))
	if p == nil {
		Release() // the kept buffers may be what stands in the way; try once more without them
		if p = C.malloc(C.size_t(size)); p == nil {
			return Buf{}, false
		}
	}
	return Buf{P: p, size: size}, true
}

// Put hands a buffer back for later calls; with maxFree kept already, the smallest goes.
func Put(b Buf) {
	pool.Lock()
	pool.free = append(pool.free, b)
	var drop Buf
	if len(pool.free) > maxFree {
		s := 0
		for i, f := range pool.free {
			if f.size < pool.free[s].size {
				s = i
			}
		}
		drop = pool.free[s]
		pool.free = append(pool.free[:s], pool.free[s+1:]...)
	}
	pool.Unlock()
	if drop.P != nil {
		C.free(drop.P)
	}
}

// Release frees every kept buffer (zkgpu.ReleaseCaches). Buffers in use are not touched; they
// are kept again when their call returns them.
func Release() {
	pool.Lock()
	free := pool.free
	pool.free = nil
	pool.Unlock()
	for _, f := range free {
		C.free(f.P)
	}
}

// Kept is the number of bytes kept, for tests.
func Kept() (bytes uintptr) {
	pool.Lock()
	defer pool.Unlock()
	for _, f := range pool.free {
		bytes += f.size
	}
	return bytes
}
