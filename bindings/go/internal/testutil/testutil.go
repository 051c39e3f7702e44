// Package testutil is what the binding's tests share: the repository's known-answer files
// (tests/vectors), the backends this machine can run, and the checks every parameter-set enum
// and every package's Cuda-without-a-GPU case go through.
package testutil

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"zkgpu"
)

// Backends are the backends every test runs on here: Auto and Cpu, and Cuda where a GPU answers
// (zkgpu.CudaUsable). Without one, each package has a test that Cuda is ErrUnavailable.
func Backends() []zkgpu.Backend {
	bs := []zkgpu.Backend{zkgpu.Auto, zkgpu.Cpu}
	if zkgpu.CudaUsable() {
		bs = append(bs, zkgpu.Cuda)
	}
	return bs
}

// EachBackend runs f as the subtest "<s>/<backend>" for every s of sets and every backend of
// Backends.
func EachBackend[S fmt.Stringer](t *testing.T, sets []S, f func(t *testing.T, s S, be zkgpu.Backend)) {
	for _, s := range sets {
		for _, be := range Backends() {
			t.Run(s.String()+"/"+be.String(), func(t *testing.T) { f(t, s, be) })
		}
	}
}

// Names checks String: want maps each value to its name (a value outside the enum, to the
// fallback).
func Names[T interface {
	comparable
	fmt.Stringer
}](t *testing.T, want map[T]string) {
	t.Helper()
	for v, w := range want {
		if got := v.String(); got != w {
			t.Errorf("String() of %#v = %q, want %q", v, got, w)
		}
	}
}

// Sizes checks a parameter set's Sizes method (sizes, as a method expression): each set of want
// has its sizes, and ParameterSet(3), outside the enum, is zkgpu.ErrInvalidArgument.
func Sizes[T ~int32, S comparable](t *testing.T, sizes func(T) (S, error), want map[T]S) {
	t.Helper()
	for s, w := range want {
		got, err := sizes(s)
		if err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("%v: sizes %+v, want %+v", s, got, w)
		}
	}
	if _, err := sizes(3); !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("%T(3).Sizes(): %v, want ErrInvalidArgument", T(3), err)
	}
}

// Unavailable checks, where no GPU answers, that call on zkgpu.Cuda fails with ErrUnavailable
// and the library's message (never a silent CPU run).
func Unavailable(t *testing.T, call func(be zkgpu.Backend) error) {
	t.Helper()
	if zkgpu.CudaUsable() {
		return
	}
	err := call(zkgpu.Cuda)
	var e *zkgpu.Error
	if !errors.Is(err, zkgpu.ErrUnavailable) || !errors.As(err, &e) || e.Message == "" {
		t.Errorf("Cuda without a GPU: %v, want ErrUnavailable with the library's message", err)
	}
}

// Dir is $ZKGPU_VECTORS_DIR, or tests/vectors of the checkout the test runs in. `go test` runs a
// package's tests in its directory (bindings/go/<pkg>); a test binary built with `go test -c`
// and run elsewhere needs the variable. Why not skip when the files are missing: a test that
// silently skips its known answers would pass without checking them.
func Dir(t testing.TB) string {
	if d := os.Getenv("ZKGPU_VECTORS_DIR"); d != "" {
		return d
	}
	for _, d := range []string{"../../../tests/vectors", "../../tests/vectors"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	t.Fatalf("tests/vectors not found from %s: set ZKGPU_VECTORS_DIR", cwd())
	return ""
}

func cwd() string {
	d, _ := os.Getwd()
	return d
}

// Load decodes the JSON file rel (relative to Dir) into v.
func Load(t testing.TB, rel string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

// Hex is a hex-encoded byte string in a vector file.
type Hex []byte

// UnmarshalJSON decodes the hex string.
func (h *Hex) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	d, err := hex.DecodeString(s)
	if err != nil {
		return err
	}
	if d == nil {
		d = []byte{} // present but empty ("") stays distinct from absent (nil)
	}
	*h = d
	return nil
}

// BenchItems runs a benchmark as the subtest "n=<n>" for each batch size n of sizes: setup(b, n)
// prepares a batch (not timed; b.Cleanup for what it must release) and returns the operation,
// which runs b.N times and is reported in items/s.
func BenchItems(b *testing.B, sizes []int, setup func(b *testing.B, n int) func()) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			op := setup(b, n)
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				op()
			}
			b.ReportMetric(float64(n)*float64(b.N)/time.Since(start).Seconds(), "items/s")
		})
	}
}
