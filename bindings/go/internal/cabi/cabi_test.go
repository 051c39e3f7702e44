package cabi

import (
	"bytes"
	"errors"
	"math/rand"
	"runtime"
	"testing"
	"unsafe"

	"zkgpu"
)

// readBack reads column j of p as C will: through its pointer and length arrays.
func readBack(p *Packed, j, n int) [][]byte {
	ptrs := unsafe.Slice((**byte)(p.Ptrs(j)), n)
	lens := unsafe.Slice((*uintptr)(p.Lens(j)), n)
	out := make([][]byte, n)
	for i := range out {
		if lens[i] > 0 {
			out[i] = append([]byte{}, unsafe.Slice(ptrs[i], lens[i])...)
		} else if ptrs[i] == nil {
			out[i] = nil // would be NULL: the C ABI allows it only for length 0, Pack never makes one
		} else {
			out[i] = []byte{}
		}
	}
	return out
}

// TestPackRoundTrip: every item reads back through the arrays the C ABI takes, with sizes that
// cross the parallel copy's chunk boundaries and items of length 0 (nil and empty).
func TestPackRoundTrip(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // the parallel path even on a small machine
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 7, packChunk - 1, packChunk, packChunk + 1, 3*packChunk + 17} {
		cols := make([][][]byte, 3)
		for j := range cols {
			cols[j] = make([][]byte, n)
			for i := range cols[j] {
				switch l := rng.Intn(70); {
				case l == 0:
					cols[j][i] = nil
				case l == 1:
					cols[j][i] = []byte{}
				default:
					cols[j][i] = make([]byte, l)
					rng.Read(cols[j][i])
				}
			}
		}
		p, err := Pack(cols, n, uintptr(n))
		if err != nil {
			t.Fatal(err)
		}
		for j := range cols {
			got := readBack(p, j, n)
			for i := range got {
				if got[i] == nil {
					t.Fatalf("n=%d column %d item %d: NULL pointer", n, j, i)
				}
				if !bytes.Equal(got[i], cols[j][i]) {
					t.Fatalf("n=%d column %d item %d: %x, want %x", n, j, i, got[i], cols[j][i])
				}
			}
		}
		// The extra region follows the arrays and does not overlap the data.
		extra := unsafe.Slice((*byte)(p.Extra()), n)
		for i := range extra {
			extra[i] = byte(i%2) | 0x10
		}
		for i, v := range p.Verdicts(n) {
			if v {
				t.Fatalf("byte 0x1%d read as true: only 1 is a valid verdict", i%2)
			}
		}
		for i := range extra {
			extra[i] = byte(i % 2)
		}
		for i, v := range p.Verdicts(n) {
			if v != (i%2 == 1) {
				t.Fatalf("verdict %d: %v", i, v)
			}
		}
		if got := readBack(p, 0, n); !bytes.Equal(got[n-1], cols[0][n-1]) {
			t.Fatal("writing the extra region changed the data")
		}
		p.Free()
	}
}

func TestFlatSplit(t *testing.T) {
	buf, bad := Flat([][]byte{{1, 2}, {3}, nil, {4, 5}}, 2, "thing")
	if !bytes.Equal(buf, []byte{1, 2, 0, 0, 0, 0, 4, 5}) {
		t.Fatalf("Flat: %v", buf)
	}
	if bad[0] != nil || bad[3] != nil || !errors.Is(bad[1], zkgpu.ErrInvalidInput) || !errors.Is(bad[2], zkgpu.ErrInvalidInput) {
		t.Fatalf("Flat errors: %v", bad)
	}
	if _, bad := Flat([][]byte{{1}}, 1, "x"); bad != nil {
		t.Fatal("Flat of good items allocates errors")
	}
	items := Split(buf, 4, 2)
	items[0] = append(items[0], 9) // must reallocate, not overwrite item 1
	if !bytes.Equal(items[1], []byte{0, 0}) || !bytes.Equal(buf[2:4], []byte{0, 0}) {
		t.Fatal("append to one split item wrote into the next")
	}
}

func TestErrors(t *testing.T) {
	err := Errorf("n is %d", 3)
	var e *zkgpu.Error
	if !errors.As(err, &e) || e.Status != zkgpu.StatusInvalidArgument || e.Message != "n is 3" ||
		!errors.Is(err, zkgpu.ErrInvalidArgument) || errors.Is(err, zkgpu.ErrInternal) {
		t.Fatalf("Errorf: %#v", err)
	}
	if err.Error() != "zkgpu: invalid argument: n is 3" {
		t.Fatalf("message %q", err.Error())
	}
	if CheckBackend(zkgpu.Cuda) != nil || CheckBackend(zkgpu.Backend(3)) == nil {
		t.Fatal("CheckBackend")
	}
	// Call: a success is nil and a failure carries the status (the message comes from the library).
	if Call(func() int32 { return 0 }) != nil {
		t.Fatal("Call of a success")
	}
	if err := Call(func() int32 { return int32(zkgpu.StatusCudaError) }); !errors.Is(err, zkgpu.ErrCudaError) {
		t.Fatalf("Call of a failure: %v", err)
	}
}

// TestForChunks: every chunk runs exactly once, with several workers and with one.
func TestForChunks(t *testing.T) {
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		for _, chunks := range []int{0, 1, 2, 33} {
			seen := make([]int32, chunks)
			ForChunks(chunks, func(c int) { seen[c]++ })
			for c, k := range seen {
				if k != 1 {
					t.Fatalf("GOMAXPROCS %d, %d chunks: chunk %d ran %d times", procs, chunks, c, k)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}
