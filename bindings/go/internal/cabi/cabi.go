// Package cabi is what the capability packages share for calling the C ABI: the library's own OS
// threads to call it on (threads.go), its thread-local error message read there, and one C
// allocation per batch call.
package cabi

/*
#cgo pkg-config: zkgpu
#include <zkgpu.h>
*/
import "C"

import (
	"fmt"

	"zkgpu"
)

// Call runs f, one cgo call into the library returning its zkgpu_status, on one of the library's
// threads (threads.go), and turns a failure into a *zkgpu.Error carrying zkgpu_last_error(), read
// on that same thread (the message is thread-local).
func Call(f func() int32) error {
	var err error
	onLibThread(func() {
		if st := zkgpu.Status(f()); st != zkgpu.StatusOK {
			err = &zkgpu.Error{Status: st, Message: C.GoString(C.zkgpu_last_error())}
		}
	})
	return err
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

// CheckSet is what every batch call of mlkem and mldsa does first: the backend (CheckBackend),
// then the parameter set's sizes (sizes is the set's Sizes method, whose query validates the set).
func CheckSet[S any](backend zkgpu.Backend, sizes func() (S, error)) (S, error) {
	if err := CheckBackend(backend); err != nil {
		var zero S
		return zero, err
	}
	return sizes()
}
