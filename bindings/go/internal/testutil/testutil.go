// Package testutil is what the binding's tests share: the repository's known-answer files
// (tests/vectors) and the backends this machine can run.
package testutil

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

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
