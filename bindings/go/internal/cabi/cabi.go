// Package cabi is what the capability packages share for calling the C ABI: reading the
// thread-local error message on the calling thread, and one C allocation per batch call.
package cabi

/*
#cgo pkg-config: zkgpu
#include <zkgpu.h>
*/
import "C"

import (
	"fmt"
	"runtime"

	"zkgpu"
)

// Call runs f, one cgo call into the library returning its zkgpu_status, and turns a failure into
// a *zkgpu.Error carrying zkgpu_last_error(). Why the OS thread is locked: the message is
// thread-local, and without the lock the goroutine may move to another thread between the two
// cgo calls and read that thread's message.
func Call(f func() int32) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	st := zkgpu.Status(f())
	if st == zkgpu.StatusOK {
		return nil
	}
	return &zkgpu.Error{Status: st, Message: C.GoString(C.zkgpu_last_error())}
}

// Errorf is an argument the binding rejects before calling the library.
func Errorf(format string, args ...any) error {
	return &zkgpu.Error{Status: zkgpu.StatusInvalidArgument, Message: fmt.Sprintf(format, args...)}
}

// CheckBackend rejects a Backend outside the enum here, so that a batch of zero items (which
// never reaches the library) reports it the same way a full one does.
func CheckBackend(b zkgpu.Backend) error {
	if !b.Valid() {
		return Errorf("backend %d is not Auto, Cpu or Cuda", int32(b))
	}
	return nil
}
