package ed25519_test

import (
	stded25519 "crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"zkgpu"
	"zkgpu/ed25519"
)

// The sizes of issue 15's benchmark: binding overhead at 1, 64, 4096 and 2^20 signatures, and the
// 8x-the-standard-library target at 4096.
var benchSizes = []int{1, 64, 4096, 1 << 20}

// corpus holds distinct valid signatures of 64-byte messages (the message length of `zkgpu
// ed25519 bench`), generated once per process and grown on demand: 2^20 of them take ~25 s of CPU
// time, so they are signed by one goroutine per core.
var corpus struct {
	sync.Mutex
	b batch
}

func benchBatch(n int) *batch {
	corpus.Lock()
	defer corpus.Unlock()
	have := corpus.b.len()
	if have >= n {
		return &batch{corpus.b.pubs[:n], corpus.b.msgs[:n], corpus.b.sigs[:n]}
	}
	pubs := make([]stded25519.PublicKey, n-have)
	msgs := make([][]byte, n-have)
	sigs := make([][]byte, n-have)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			// Deterministic keys (one per 64 items) and messages, so every run signs the same corpus.
			var k stded25519.PrivateKey
			for i := lo; i < hi; i++ {
				var idx [8]byte
				if j := have + i; k == nil || j%64 == 0 {
					binary.LittleEndian.PutUint64(idx[:], uint64(j/64))
					seed := sha256.Sum256(append([]byte("zkgpu-go-bench-key"), idx[:]...))
					k = stded25519.NewKeyFromSeed(seed[:])
				}
				binary.LittleEndian.PutUint64(idx[:], uint64(have+i))
				m := sha512.Sum512(append([]byte("zkgpu-go-bench-msg"), idx[:]...))
				pubs[i], msgs[i], sigs[i] = k.Public().(stded25519.PublicKey), m[:], stded25519.Sign(k, m[:])
			}
		}(w*(n-have)/workers, (w+1)*(n-have)/workers)
	}
	wg.Wait()
	corpus.b.pubs = append(corpus.b.pubs, pubs...)
	corpus.b.msgs = append(corpus.b.msgs, msgs...)
	corpus.b.sigs = append(corpus.b.sigs, sigs...)
	return &batch{corpus.b.pubs[:n], corpus.b.msgs[:n], corpus.b.sigs[:n]}
}

// run times b.N repetitions of verifying the batch and reports verifications per second (Go 1.19
// has no b.Elapsed, hence the explicit clock) and the median milliseconds per call, the figure the
// C++ and Rust benchmarks report (a mean over a few calls is pulled up by one slow call). Every
// run must accept every signature: a fast wrong answer is not a result.
func run(b *testing.B, n int, prepare func(*batch), verify func(*batch) []bool) {
	bt := benchBatch(n)
	if prepare != nil {
		prepare(bt)
	}
	// One untimed call first: the first GPU call of a process starts the CUDA context and builds
	// the fixed-base table (hundreds of ms), which is no part of a batch's rate.
	verify(bt)
	calls := make([]time.Duration, b.N)
	b.ResetTimer()
	start := time.Now()
	var ok []bool
	for i := 0; i < b.N; i++ {
		t := time.Now()
		ok = verify(bt)
		calls[i] = time.Since(t)
	}
	el := time.Since(start)
	b.StopTimer()
	for i, v := range ok {
		if !v {
			b.Fatalf("item %d of a valid batch rejected", i)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/el.Seconds(), "verifs/s")
	b.ReportMetric(medianMs(calls), "median-ms")
}

func medianMs(d []time.Duration) float64 {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	h := len(s) / 2
	if len(s)%2 == 1 {
		return float64(s[h]) / 1e6
	}
	return float64(s[h-1]+s[h]) / 2e6
}

func sizes(b *testing.B, verify func(*batch) []bool) { sizesPrepared(b, nil, verify) }

// sizesPrepared runs prepare(batch) before each timed run (untimed).
func sizesPrepared(b *testing.B, prepare func(*batch), verify func(*batch) []bool) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { run(b, n, prepare, verify) })
	}
}

// BenchmarkBatchVerify: the published API, Auto (the GPU from the crossover on where there is one).
func BenchmarkBatchVerify(b *testing.B) {
	sizes(b, func(bt *batch) []bool { return ed25519.BatchVerify(bt.pubs, bt.msgs, bt.sigs) })
}

func withBackend(be zkgpu.Backend) func(*batch) []bool {
	return func(bt *batch) []bool {
		ok, err := ed25519.BatchVerifyWith(bt.pubs, bt.msgs, bt.sigs, ed25519.Options{Backend: be})
		if err != nil {
			panic(err)
		}
		return ok
	}
}

func BenchmarkBatchVerifyCpu(b *testing.B) { sizes(b, withBackend(zkgpu.Cpu)) }

func BenchmarkBatchVerifyCuda(b *testing.B) {
	if !zkgpu.CudaUsable() {
		b.Skip("no usable GPU (zkgpu_cuda_usable() = 0)")
	}
	sizes(b, withBackend(zkgpu.Cuda))
}

// The packed entry point on arrays packed beforehand (BatchVerifyPacked, no copy): what the
// binding's own copy costs shows as the gap to BatchVerifyWith at the same backend; compare both
// with `zkgpu ed25519 bench --json` (gpu_per_s, gpu_packed_per_s, cpu_per_s at the same n).
func packed(b *testing.B, be zkgpu.Backend) {
	var keys, sigs, msgs []byte
	var offs []uint64
	sizesPrepared(b, func(bt *batch) { keys, sigs, msgs, offs = packedOf(bt) }, func(*batch) []bool {
		ok, err := ed25519.BatchVerifyPacked(keys, sigs, msgs, offs, ed25519.Options{Backend: be})
		if err != nil {
			panic(err)
		}
		return ok
	})
}

func BenchmarkBatchVerifyPacked(b *testing.B)    { packed(b, zkgpu.Auto) }
func BenchmarkBatchVerifyPackedCpu(b *testing.B) { packed(b, zkgpu.Cpu) }

func BenchmarkBatchVerifyPackedCuda(b *testing.B) {
	if !zkgpu.CudaUsable() {
		b.Skip("no usable GPU (zkgpu_cuda_usable() = 0)")
	}
	packed(b, zkgpu.Cuda)
}

// BenchmarkStdlibSerial: crypto/ed25519.Verify in a loop on one goroutine.
func BenchmarkStdlibSerial(b *testing.B) {
	sizes(b, func(bt *batch) []bool {
		ok := make([]bool, bt.len())
		for i := range ok {
			ok[i] = stded25519.Verify(bt.pubs[i], bt.msgs[i], bt.sigs[i])
		}
		return ok
	})
}

// BenchmarkStdlibParallel: crypto/ed25519.Verify over GOMAXPROCS goroutines, each taking a
// contiguous share: what a Go program does without zkgpu on the same cores.
func BenchmarkStdlibParallel(b *testing.B) {
	sizes(b, func(bt *batch) []bool {
		n := bt.len()
		ok := make([]bool, n)
		workers := runtime.GOMAXPROCS(0)
		if workers > n {
			workers = n
		}
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(lo, hi int) {
				defer wg.Done()
				for i := lo; i < hi; i++ {
					ok[i] = stded25519.Verify(bt.pubs[i], bt.msgs[i], bt.sigs[i])
				}
			}(w*n/workers, (w+1)*n/workers)
		}
		wg.Wait()
		return ok
	})
}
