package cabi

import (
	"crypto/rand"
	"fmt"
	"unsafe"

	"zkgpu"
)

// Flat copies n fixed-size items into one Go buffer, item i at offset i*size, the layout of the
// C ABI's packed inputs. Go memory is allowed here because the buffer holds no pointers. An item
// of the wrong length is left zero and gets an error in bad[i] (nil for the others), which the
// caller reports as that item's result: the library computes on the zeros, and the caller
// discards what it wrote for the item.
func Flat(items [][]byte, size int, what string) (buf []byte, bad []error) {
	buf = make([]byte, len(items)*size)
	for i, b := range items {
		if len(b) != size {
			if bad == nil {
				bad = make([]error, len(items))
			}
			bad[i] = ItemErrorf("%s is %d bytes, want %d", what, len(b), size)
			continue
		}
		copy(buf[i*size:], b)
	}
	return buf, bad
}

// ItemErrorf is a per-item error (errors.Is(err, zkgpu.ErrInvalidInput)).
func ItemErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{zkgpu.ErrInvalidInput}, args...)...)
}

// Split views buf as n items of size bytes, each capped at its end so that an append to one
// item reallocates instead of writing into the next.
func Split(buf []byte, n, size int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = buf[i*size : (i+1)*size : (i+1)*size]
	}
	return out
}

// Ptr is the address of buf's first byte for a C argument, or nil for an empty buf (n = 0 calls
// may pass NULL).
func Ptr(buf []byte) unsafe.Pointer {
	if len(buf) == 0 {
		return nil
	}
	return unsafe.Pointer(&buf[0])
}

// ItemError is item i's error in a PQ batch: the binding's own length check first, then the
// library's per-item status (zkgpu_pq_status: 0 = ZKGPU_PQ_OK), reported with libraryReason,
// what the library rejects such an item for.
func ItemError(bad []error, status []byte, i int, libraryReason string) error {
	if bad != nil && bad[i] != nil {
		return bad[i]
	}
	if status[i] != 0 {
		return ItemErrorf("%s", libraryReason)
	}
	return nil
}

// MergeErrors merges two per-item error lists (either may be nil) into a, keeping a's error
// where both have one.
func MergeErrors(a, b []error) []error {
	if b == nil {
		return a
	}
	if a == nil {
		return b
	}
	for i := range a {
		if a[i] == nil {
			a[i] = b[i]
		}
	}
	return a
}

// KeyGen is a key generation batch: each fixed-size seed gives two fixed-size outputs (ek and
// dk, pk and sk), and item makes seed i's result from them (for a seed of the wrong length: nil
// outputs and its error). call is the library's batch on the flat seeds, filling the two flat
// outputs and returning its zkgpu_status (run through Call); it is not called for n = 0.
func KeyGen[K any](seeds [][]byte, seedSize, sizeA, sizeB int, call func(in, a, b []byte) int32,
	item func(seed, a, b []byte, err error) K) ([]K, error) {
	n := len(seeds)
	in, bad := Flat(seeds, seedSize, "seed")
	bufA, bufB := make([]byte, n*sizeA), make([]byte, n*sizeB)
	if n > 0 {
		if err := Call(func() int32 { return call(in, bufA, bufB) }); err != nil {
			return nil, err
		}
	}
	a, b := Split(bufA, n, sizeA), Split(bufB, n, sizeB)
	out := make([]K, n)
	for i := range out {
		if e := At(bad, i); e != nil {
			out[i] = item(seeds[i], nil, nil, e)
			continue
		}
		out[i] = item(seeds[i], a[i], b[i], nil)
	}
	return out, nil
}

// GenerateKeys is keyGen on n seeds of seedSize bytes from crypto/rand (RandomSeeds).
func GenerateKeys[K any](n, seedSize int, keyGen func(seeds [][]byte) ([]K, error)) ([]K, error) {
	seeds, err := RandomSeeds(n, seedSize)
	if err != nil {
		return nil, err
	}
	return keyGen(seeds)
}

// RandomSeeds is n seeds of size bytes from crypto/rand (one read).
func RandomSeeds(n, size int) ([][]byte, error) {
	buf := make([]byte, n*size)
	if _, err := rand.Read(buf); err != nil {
		return nil, err
	}
	return Split(buf, n, size), nil
}

// At is bad[i], or nil when bad is (no item was bad).
func At(bad []error, i int) error {
	if bad == nil {
		return nil
	}
	return bad[i]
}
