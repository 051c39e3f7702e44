package ed25519

import (
	"crypto/ed25519"
)

// subBatch is the size of the pieces a large batch is verified in: the binding packs piece k+1
// into C memory while the library verifies piece k, so the copy (~6 ms for 2^20 items on 16
// goroutines, about an eighth of what the GPU takes for them) is hidden behind the library's work
// instead of preceding it; only the first piece's copy is exposed. Why not smaller: every call
// starts the library's chunk pipeline afresh (its first chunk is packed and uploaded before the
// GPU has work), a fixed cost per piece.
const subBatch = 1 << 18

// piece is one packed sub-batch on its way from the packing goroutine to the caller's.
type piece struct {
	p   *packed
	lo  int
	err error
}

// verifyPieces is BatchVerifyWith for n >= 2*subBatch (size = subBatch; the tests use small
// pieces): items [lo, lo+size) packed and verified one piece at a time, packing overlapped with the previous piece's call. At most two pieces are
// held (one in the library, one being packed). Verdicts are those of one call: items are
// independent and each piece is judged under the same options.
func verifyPieces(pubs []ed25519.PublicKey, msgs, sigs [][]byte, opts Options, size int) ([]bool, error) {
	n := len(pubs)
	pieces := make(chan piece)
	stop := make(chan struct{})
	go func() {
		defer close(pieces)
		for lo := 0; lo < n; lo += size {
			hi := lo + size
			if hi > n {
				hi = n
			}
			p, err := pack(pubs[lo:hi], msgs[lo:hi], sigs[lo:hi])
			select {
			case pieces <- piece{p, lo, err}:
			case <-stop: // the caller failed on an earlier piece
				if p != nil {
					p.free()
				}
				return
			}
			if err != nil {
				return
			}
		}
	}()
	out := make([]bool, n)
	for pc := range pieces {
		if pc.err != nil {
			return nil, pc.err
		}
		err := verifyPacked(pc.p, opts)
		if err == nil {
			hi := pc.lo + pc.p.n
			pc.p.resultsInto(out[pc.lo:hi], pubs[pc.lo:hi], sigs[pc.lo:hi])
		}
		pc.p.free()
		if err != nil {
			close(stop)
			for range pieces { // let the packer finish and free what it holds
			}
			return nil, err
		}
	}
	return out, nil
}
