package ed25519

import (
	"crypto/ed25519"
	"fmt"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkPack is the binding's own cost per BatchVerifyWith call: copying n items (32-byte
// key, 64-byte signature, 64-byte message, each its own Go allocation) into the packed C buffer
// and reading the verdicts back. Run with -cpu 1,16 to see the goroutines scale; the gap to the
// library's verifications/s at the same n is the headroom left (docs/go.md).
func BenchmarkPack(b *testing.B) {
	for _, n := range []int{64, 4096, 1 << 20} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			pubs := make([]ed25519.PublicKey, n)
			msgs, sigs := make([][]byte, n), make([][]byte, n)
			for i := range pubs {
				pubs[i], msgs[i], sigs[i] = make([]byte, 32), make([]byte, 64), make([]byte, 64)
			}
			out := make([]bool, n)
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				p, err := pack(pubs, msgs, sigs)
				if err != nil {
					b.Fatal(err)
				}
				p.resultsInto(out, pubs, sigs)
				p.free()
			}
			b.ReportMetric(float64(n)*float64(b.N)/time.Since(start).Seconds(), "items/s")
		})
	}
}

// TestPackLayout: the C buffer holds the keys, signatures, offsets and messages where the C call
// reads them, a malformed item as zeros with an empty message.
func TestPackLayout(t *testing.T) {
	n := 3*packChunk + 7
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
	p, err := pack(pubs, msgs, sigs)
	if err != nil {
		t.Fatal(err)
	}
	defer p.free()
	keys := cBytes(p.keys(), 32*n)
	sigb := cBytes(p.sigs(), 64*n)
	offs := cWords(p.offsets(), n+1)
	var pos uint64
	for i := 0; i < n; i++ {
		if offs[i] != pos {
			t.Fatalf("offset %d = %d, want %d", i, offs[i], pos)
		}
		if i == 600 {
			if keys[32*i] != 0 || sigb[64*i+63] != 0 {
				t.Fatal("a malformed item is not packed as zeros")
			}
			continue
		}
		if keys[32*i] != byte(i) || sigb[64*i+63] != byte(i>>3) {
			t.Fatalf("item %d's key or signature is not at its place", i)
		}
		m := cBytes(p.messages(), int(pos)+len(msgs[i]))[pos:]
		if string(m) != string(msgs[i]) {
			t.Fatalf("item %d's message differs", i)
		}
		pos += uint64(len(msgs[i]))
	}
	if offs[n] != pos {
		t.Fatalf("last offset %d, want %d", offs[n], pos)
	}
}

// Views of the C buffer.
func cBytes(p unsafe.Pointer, n int) []byte   { return unsafe.Slice((*byte)(p), n) }
func cWords(p unsafe.Pointer, n int) []uint64 { return unsafe.Slice((*uint64)(p), n) }
