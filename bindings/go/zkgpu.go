// Package zkgpu is the Go binding of the zkgpu library (include/zkgpu.h): the types every
// capability package shares (Backend, Status, Error) and the library's version.
//
// The capability packages are zkgpu/ed25519, zkgpu/mlkem and zkgpu/mldsa. cgo finds the library
// with pkg-config (`#cgo pkg-config: zkgpu`): point PKG_CONFIG_PATH at <prefix>/lib/pkgconfig of
// an installed zkgpu, and LD_LIBRARY_PATH at <prefix>/lib when the shared library is not on the
// loader's path. See docs/go.md.
package zkgpu

/*
#cgo pkg-config: zkgpu
#include <zkgpu.h>
*/
import "C"

import (
	"errors"
	"runtime"

	"zkgpu/internal/enum"
	"zkgpu/internal/hostbuf"
)

// Version is the library's version string (zkgpu_version), e.g. "0.1.0".
func Version() string { return C.GoString(C.zkgpu_version()) }

// CudaUsable reports whether the library has the CUDA backend and a usable GPU answers, i.e.
// whether Cuda can succeed and Auto can use the GPU.
func CudaUsable() bool { return C.zkgpu_cuda_usable() != 0 }

// ReleaseCaches frees what is kept between calls: the GPU memory the library keeps (tables,
// staging and device buffers: zkgpu_release_gpu_caches) and the host buffers this binding copies
// batches into (as large as the largest recent batches). The next call recreates what it needs.
// Call it when no zkgpu call is in flight.
func ReleaseCaches() error {
	hostbuf.Release()
	// The message is thread-local: read it on the thread that made the call (internal/cabi.Call
	// does the same for the capability packages; it cannot serve here, it imports this package).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if st := Status(C.zkgpu_release_gpu_caches()); st != StatusOK {
		return &Error{Status: st, Message: C.GoString(C.zkgpu_last_error())}
	}
	return nil
}

// Backend selects where a batch runs. The values are those of zkgpu_backend.
type Backend int32

const (
	// Auto runs a batch on the GPU when the library has the CUDA backend, a device answers and the
	// batch reaches the operation's crossover (docs/api-conventions.md); below it, the CPU.
	Auto Backend = C.ZKGPU_BACKEND_AUTO
	// Cpu always works: all cores, through OpenMP.
	Cpu Backend = C.ZKGPU_BACKEND_CPU
	// Cuda requires a usable GPU; without one the call fails with ErrUnavailable, never a silent
	// CPU run.
	Cuda Backend = C.ZKGPU_BACKEND_CUDA
)

func (b Backend) String() string {
	return enum.Name(b, []string{Auto: "auto", Cpu: "cpu", Cuda: "cuda"}, "Backend(%d)")
}

// Valid reports whether b is one of Auto, Cpu and Cuda.
func (b Backend) Valid() bool { return b == Auto || b == Cpu || b == Cuda }

// Status is a zkgpu_status. A non-OK Status is itself an error, so the sentinels below work
// with errors.Is on any *Error.
type Status int32

const (
	StatusOK              Status = C.ZKGPU_OK
	StatusInvalidArgument Status = C.ZKGPU_INVALID_ARGUMENT
	StatusOutOfMemory     Status = C.ZKGPU_OUT_OF_MEMORY
	StatusUnavailable     Status = C.ZKGPU_UNAVAILABLE
	StatusCudaError       Status = C.ZKGPU_CUDA_ERROR
	StatusInternal        Status = C.ZKGPU_INTERNAL
)

// Sentinels for errors.Is: errors.Is(err, zkgpu.ErrUnavailable) holds for every *Error whose
// Status is StatusUnavailable, whatever its message.
var (
	ErrInvalidArgument error = StatusInvalidArgument
	ErrOutOfMemory     error = StatusOutOfMemory
	ErrUnavailable     error = StatusUnavailable
	ErrCudaError       error = StatusCudaError
	ErrInternal        error = StatusInternal
)

func (s Status) String() string {
	return enum.Name(s, []string{StatusOK: "ok", StatusInvalidArgument: "invalid argument", StatusOutOfMemory: "out of memory",
		StatusUnavailable: "unavailable", StatusCudaError: "CUDA error", StatusInternal: "internal error"}, "status %d")
}

// Error makes a Status usable as an error value (the sentinels).
func (s Status) Error() string { return "zkgpu: " + s.String() }

// Error is a failed call: the library's status and its message (zkgpu_last_error, read on the
// thread that made the call), or the binding's own message for an argument it rejects before
// calling the library.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Status.Error()
	}
	return "zkgpu: " + e.Status.String() + ": " + e.Message
}

// Unwrap returns the Status, which is what errors.Is compares with the sentinels.
func (e *Error) Unwrap() error { return e.Status }

// ErrInvalidInput is the per-item error of the ML-KEM and ML-DSA batches (zkgpu_pq_status
// ZKGPU_PQ_INVALID_INPUT, or an item of the wrong length): the item was rejected, the call and
// the other items were not. Item errors wrap it with the reason.
var ErrInvalidInput = errors.New("zkgpu: invalid input")
