package ed25519_test

import (
	"errors"
	"math/rand"
	"testing"

	"zkgpu"
	"zkgpu/ed25519"
	"zkgpu/internal/testutil"
)

// packedOf lays a batch of well-formed items out as BatchVerifyPacked takes it.
func packedOf(b *batch) (keys, sigs, msgs []byte, offsets []uint64) {
	offsets = []uint64{0}
	for i := 0; i < b.len(); i++ {
		keys = append(keys, b.pubs[i]...)
		sigs = append(sigs, b.sigs[i]...)
		msgs = append(msgs, b.msgs[i]...)
		offsets = append(offsets, uint64(len(msgs)))
	}
	return
}

// wellFormedOnly drops items with a key or signature of the wrong length.
func wellFormedOnly(b *batch) *batch {
	out := &batch{}
	for i := 0; i < b.len(); i++ {
		if len(b.pubs[i]) == 32 && len(b.sigs[i]) == 64 {
			out.add(b.pubs[i], b.msgs[i], b.sigs[i])
		}
	}
	return out
}

func TestPackedEqualsStdlib(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	b := wellFormedOnly(mutated(rng, signed(rng, 700)))
	keys, sigs, msgs, offs := packedOf(b)
	want := make([]bool, b.len())
	for i := range want {
		want[i] = stdVerify(b.pubs[i], b.msgs[i], b.sigs[i])
	}
	for _, be := range testutil.Backends() {
		got, err := ed25519.BatchVerifyPacked(keys, sigs, msgs, offs, ed25519.Options{Backend: be})
		if err != nil {
			t.Fatalf("%v: %v", be, err)
		}
		compare(t, "BatchVerifyPacked/"+be.String(), got, want)
	}
	// The inputs are read, not written.
	k2, s2, m2, _ := packedOf(b)
	if string(k2) != string(keys) || string(s2) != string(sigs) || string(m2) != string(msgs) {
		t.Fatal("BatchVerifyPacked changed its inputs")
	}
}

func TestPackedChecks(t *testing.T) {
	b := signed(rand.New(rand.NewSource(21)), 4)
	keys, sigs, msgs, offs := packedOf(b)
	bad := func(name string, k, s, m []byte, o []uint64) {
		t.Helper()
		_, err := ed25519.BatchVerifyPacked(k, s, m, o, ed25519.Options{})
		var e *zkgpu.Error
		if !errors.Is(err, zkgpu.ErrInvalidArgument) || !errors.As(err, &e) || e.Message == "" {
			t.Errorf("%s: error %v, want ErrInvalidArgument with a message", name, err)
		}
	}
	bad("key bytes", keys[:33], sigs, msgs, offs)
	bad("signature bytes", keys, sigs[:64], msgs, offs)
	bad("offset count", keys, sigs, msgs, offs[:4])
	bad("last offset", keys, sigs, msgs[1:], offs)
	bad("messages without items", nil, nil, msgs, nil)
	dec := append([]uint64{}, offs...)
	dec[2] = dec[3] + 1 // decreasing: the library's check, named by index
	bad("decreasing offsets", keys, sigs, msgs, dec)
	_, err := ed25519.BatchVerifyPacked(keys, sigs, msgs, offs, ed25519.Options{Mode: 9})
	if !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("mode 9: %v", err)
	}
	got, err := ed25519.BatchVerifyPacked(nil, nil, nil, nil, ed25519.Options{})
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("empty packed batch: %#v, %v", got, err)
	}
}

// TestWrongLengthsAcrossPackChunks puts malformed items in several of the binding's pack chunks
// (256 items each): each is false, every other item keeps the standard library's verdict.
func TestWrongLengthsAcrossPackChunks(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	b := signed(rng, 2100)
	for i := 3; i < b.len(); i += 211 {
		switch i % 3 {
		case 0:
			b.pubs[i] = b.pubs[i][:31]
		case 1:
			b.sigs[i] = append(clone(b.sigs[i]), 0)
		default:
			b.sigs[i] = nil
		}
	}
	checkAgainstStd(t, b)
	// And the kept buffer, reused by a smaller batch, holds nothing of the larger one.
	small := signed(rng, 3)
	checkAgainstStd(t, small)
}
