package enum_test

import (
	"testing"

	"zkgpu"
	"zkgpu/internal/testutil"
)

// TestRootNames: the names of the root package's enums (which has no tests of its own), and the
// fallback of a value outside each.
func TestRootNames(t *testing.T) {
	testutil.Names(t, map[zkgpu.Backend]string{zkgpu.Auto: "auto", zkgpu.Cpu: "cpu", zkgpu.Cuda: "cuda", 3: "Backend(3)", -1: "Backend(-1)"})
	testutil.Names(t, map[zkgpu.Status]string{
		zkgpu.StatusOK: "ok", zkgpu.StatusInvalidArgument: "invalid argument", zkgpu.StatusOutOfMemory: "out of memory",
		zkgpu.StatusUnavailable: "unavailable", zkgpu.StatusCudaError: "CUDA error", zkgpu.StatusInternal: "internal error",
		6: "status 6", -2: "status -2",
	})
	if got := (&zkgpu.Error{Status: zkgpu.StatusCudaError, Message: "m"}).Error(); got != "zkgpu: CUDA error: m" {
		t.Errorf("Error() = %q", got)
	}
}
