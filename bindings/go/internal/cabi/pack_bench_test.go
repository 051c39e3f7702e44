package cabi

import (
	"testing"

	"zkgpu/internal/testutil"
)

// BenchmarkPack is the binding's own cost per Ed25519 batch call: copying n (32-byte key,
// 64-byte signature, 64-byte message) items into C memory and building the pointer and length
// arrays. Run with -cpu 1,2,... to see the parallel copy scale; compare items/s with the
// verifications/s of ed25519's benchmarks.
func BenchmarkPack(b *testing.B) {
	testutil.BenchItems(b, []int{64, 4096, 1 << 20}, func(b *testing.B, n int) func() {
		cols := [][][]byte{make([][]byte, n), make([][]byte, n), make([][]byte, n)}
		for i := 0; i < n; i++ {
			cols[0][i], cols[1][i], cols[2][i] = make([]byte, 32), make([]byte, 64), make([]byte, 64)
		}
		return func() {
			p, err := Pack(cols, n, uintptr(n))
			if err != nil {
				b.Fatal(err)
			}
			p.Free()
		}
	})
}
