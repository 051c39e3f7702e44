package cabi

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkPack is the binding's own cost per Ed25519 batch call: copying n (32-byte key,
// 64-byte signature, 64-byte message) items into C memory and building the pointer and length
// arrays. Run with -cpu 1,2,... to see the parallel copy scale; compare items/s with the
// verifications/s of ed25519's benchmarks.
func BenchmarkPack(b *testing.B) {
	for _, n := range []int{64, 4096, 1 << 20} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cols := [][][]byte{make([][]byte, n), make([][]byte, n), make([][]byte, n)}
			for i := 0; i < n; i++ {
				cols[0][i], cols[1][i], cols[2][i] = make([]byte, 32), make([]byte, 64), make([]byte, 64)
			}
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				p, err := Pack(cols, n, uintptr(n))
				if err != nil {
					b.Fatal(err)
				}
				p.Free()
			}
			b.ReportMetric(float64(n)*float64(b.N)/time.Since(start).Seconds(), "items/s")
		})
	}
}
