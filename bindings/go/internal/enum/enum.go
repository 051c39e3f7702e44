// Package enum is what the binding's enum types (zkgpu.Backend, zkgpu.Status, ed25519.Mode and
// the parameter sets of mlkem and mldsa) share for their String methods. It has no cgo and
// imports nothing of the binding, so the root package zkgpu can use it too.
package enum

import "fmt"

// Name is names[v], or fallback (a format with one %d verb, e.g. "Backend(%d)") applied to v
// for a value without a name. names is indexed by the enum's values, written with the constants
// as keys: []string{Auto: "auto", Cpu: "cpu", Cuda: "cuda"} (a negative constant does not
// compile there; a gap is "", no name).
func Name[T ~int32](v T, names []string, fallback string) string {
	if v >= 0 && int64(v) < int64(len(names)) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf(fallback, int32(v))
}
