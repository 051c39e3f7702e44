package ed25519

import (
	"crypto/ed25519"
	"fmt"
	"testing"
	"time"
	"unsafe"

	"zkgpu/internal/hostbuf"
)

// BenchmarkPack is the binding's own cost per BatchVerifyWith call: the offsets pass and the
// callback's copy of n items (32-byte key, 64-byte signature, 64-byte message, each its own Go
// allocation) into a C buffer, here in one piece on one goroutine (the library asks for pieces
// on several of its threads at once). The gap to the library's verifications/s at the same n is
// the headroom left (docs/go.md).
func BenchmarkPack(b *testing.B) {
	for _, n := range []int{64, 4096, 1 << 20} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			pubs := make([]ed25519.PublicKey, n)
			msgs, sigs := make([][]byte, n), make([][]byte, n)
			for i := range pubs {
				pubs[i], msgs[i], sigs[i] = make([]byte, 32), make([]byte, 64), make([]byte, 64)
			}
			dst, ok := hostbuf.Get(uintptr(160 * n))
			if !ok {
				b.Fatal("no C memory")
			}
			defer hostbuf.Put(dst)
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				f, err := newFilled(pubs, msgs, sigs)
				if err != nil {
					b.Fatal(err)
				}
				f.fill(0, n, dst.P, unsafe.Add(dst.P, 32*n), unsafe.Add(dst.P, 96*n))
				f.free()
			}
			b.ReportMetric(float64(n)*float64(b.N)/time.Since(start).Seconds(), "items/s")
		})
	}
}

// TestFillLayout: the offsets count a malformed item as an empty message, and a chunk the library
// asks for (here items [first, first+count)) lands where the C call
// reads it: keys, signatures, messages from that chunk's first offset, a malformed item as zeros.
func TestFillLayout(t *testing.T) {
	n := 3*256 + 7
	pubs := make([]ed25519.PublicKey, n)
	msgs, sigs := make([][]byte, n), make([][]byte, n)
	for i := range pubs {
		pubs[i] = make([]byte, 32)
		sigs[i] = make([]byte, 64)
		msgs[i] = make([]byte, i%70)
		pubs[i][0], sigs[i][63] = byte(i), byte(i>>3)
		for j := range msgs[i] {
			msgs[i][j] = byte(i + j)
		}
	}
	pubs[600] = pubs[600][:31]
	f, err := newFilled(pubs, msgs, sigs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.free()
	offs := f.offsets()
	var pos uint64
	for i := 0; i < n; i++ {
		if offs[i] != pos {
			t.Fatalf("offset %d = %d, want %d", i, offs[i], pos)
		}
		if i != 600 {
			pos += uint64(len(msgs[i]))
		}
	}
	if offs[n] != pos {
		t.Fatalf("last offset %d, want %d", offs[n], pos)
	}
	if len(f.malformed) != 1 || f.malformed[0] != 600 {
		t.Fatalf("malformed items noted: %v", f.malformed)
	}
	first, count := 100, 3*256-110 // holds item 600, ends before n
	keys, sigb := make([]byte, 32*count), make([]byte, 64*count)
	msgb := make([]byte, offs[first+count]-offs[first])
	for i := range keys {
		keys[i] = 0xEE
	}
	for i := range sigb {
		sigb[i] = 0xEE
	}
	f.fill(first, count, unsafe.Pointer(&keys[0]), unsafe.Pointer(&sigb[0]), unsafe.Pointer(&msgb[0]))
	for j := 0; j < count; j++ {
		i := first + j
		if i == 600 {
			if keys[32*j] != 0 || sigb[64*j+63] != 0 {
				t.Fatal("a malformed item is not written as zeros")
			}
			continue
		}
		if keys[32*j] != byte(i) || sigb[64*j+63] != byte(i>>3) {
			t.Fatalf("item %d's key or signature is not at its place", i)
		}
		if m := msgb[offs[i]-offs[first] : offs[i+1]-offs[first]]; string(m) != string(msgs[i]) {
			t.Fatalf("item %d's message differs", i)
		}
	}
}
