package ed25519

// The library's fill callback (zkgpu_ed25519_fill_fn), exported to C. In a file of its own: a
// file with //export may only declare in its preamble, and the call that passes this function's
// address (ed25519.go) defines a C helper.

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import "unsafe"

//export zkgpuGoEd25519Fill
func zkgpuGoEd25519Fill(ctx unsafe.Pointer, first, count C.size_t, keys, sigs, msgs *C.uint8_t) {
	fillFromHandle(ctx, int(first), int(count), unsafe.Pointer(keys), unsafe.Pointer(sigs), unsafe.Pointer(msgs))
}
