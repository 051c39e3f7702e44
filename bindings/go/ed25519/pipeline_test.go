package ed25519

import (
	stded25519 "crypto/ed25519"
	"errors"
	"math/rand"
	"testing"

	"zkgpu"
)

// pieceBatch: 301 signatures under 5 keys, every third one altered (a flipped bit in the
// signature, the message or the key), every 50th with a key or signature of the wrong length.
func pieceBatch() (pubs []stded25519.PublicKey, msgs, sigs [][]byte) {
	rng := rand.New(rand.NewSource(31))
	keys := make([]stded25519.PrivateKey, 5)
	for i := range keys {
		seed := make([]byte, stded25519.SeedSize)
		rng.Read(seed)
		keys[i] = stded25519.NewKeyFromSeed(seed)
	}
	for i := 0; i < 301; i++ {
		k := keys[i%len(keys)]
		msg := make([]byte, rng.Intn(90))
		rng.Read(msg)
		pub, sig := append([]byte{}, k.Public().(stded25519.PublicKey)...), stded25519.Sign(k, msg)
		switch {
		case i%50 == 7:
			pub = pub[:31]
		case i%50 == 8:
			sig = append(sig, 0)
		case i%3 == 0 && len(msg) > 0:
			msg[rng.Intn(len(msg))] ^= 1 << uint(rng.Intn(8))
		case i%3 == 1:
			sig[rng.Intn(64)] ^= 1 << uint(rng.Intn(8))
		case i%6 == 2:
			pub[rng.Intn(32)] ^= 1 << uint(rng.Intn(8))
		}
		pubs, msgs, sigs = append(pubs, pub), append(msgs, msg), append(sigs, sig)
	}
	return
}

// TestPiecesEqualOneCall: a batch verified in pieces of several sizes (one that divides it, ones
// that leave a short last piece, one larger than the batch) gives crypto/ed25519.Verify's verdict
// for every item, in input order.
func TestPiecesEqualOneCall(t *testing.T) {
	pubs, msgs, sigs := pieceBatch()
	want := make([]bool, len(pubs))
	valid := 0
	for i := range pubs {
		want[i] = len(pubs[i]) == 32 && stded25519.Verify(pubs[i], msgs[i], sigs[i])
		if want[i] {
			valid++
		}
	}
	if valid == 0 || valid == len(pubs) {
		t.Fatalf("%d of %d valid: the batch does not exercise both verdicts", valid, len(pubs))
	}
	for _, size := range []int{1, 7, 43, 150, 301, 1000} {
		got, err := verifyPieces(pubs, msgs, sigs, Options{}, size)
		if err != nil {
			t.Fatalf("pieces of %d: %v", size, err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("pieces of %d: item %d is %v, crypto/ed25519 says %v", size, i, got[i], want[i])
			}
		}
	}
}

// TestPiecesStopAtAFailure: when the library fails on a piece (Cuda without a GPU), the call
// returns that error, the packing goroutine stops, and the next call works.
func TestPiecesStopAtAFailure(t *testing.T) {
	if zkgpu.CudaUsable() {
		t.Skip("a GPU is usable here: Cuda does not fail")
	}
	pubs, msgs, sigs := pieceBatch()
	if _, err := verifyPieces(pubs, msgs, sigs, Options{Backend: zkgpu.Cuda}, 20); !errors.Is(err, zkgpu.ErrUnavailable) {
		t.Fatalf("Cuda without a GPU in pieces: error %v, want ErrUnavailable", err)
	}
	got, err := verifyPieces(pubs, msgs, sigs, Options{Backend: zkgpu.Cpu}, 20)
	if err != nil || len(got) != len(pubs) {
		t.Fatalf("the call after a failure: %d verdicts, error %v", len(got), err)
	}
}
