package mlkem_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"zkgpu"
	"zkgpu/internal/testutil"
	"zkgpu/mlkem"
)

var sets = []mlkem.ParameterSet{mlkem.MLKEM512, mlkem.MLKEM768, mlkem.MLKEM1024}

func TestSizes(t *testing.T) {
	// FIPS 203, Table 3.
	sizes := func(ek, dk, c int) mlkem.Sizes {
		return mlkem.Sizes{EncapsulationKey: ek, DecapsulationKey: dk, Ciphertext: c, Seed: 64, Message: 32, SharedKey: 32}
	}
	testutil.Sizes(t, mlkem.ParameterSet.Sizes, map[mlkem.ParameterSet]mlkem.Sizes{
		mlkem.MLKEM512: sizes(800, 1632, 768), mlkem.MLKEM768: sizes(1184, 2400, 1088), mlkem.MLKEM1024: sizes(1568, 3168, 1568),
	})
	testutil.Names(t, map[mlkem.ParameterSet]string{
		mlkem.MLKEM512: "ML-KEM-512", mlkem.MLKEM768: "ML-KEM-768", mlkem.MLKEM1024: "ML-KEM-1024", 3: "ParameterSet(3)", -1: "ParameterSet(-1)",
	})
}

// TestRoundTrip: fresh keys, random encapsulation, decapsulation gives the sender's key; a
// tampered ciphertext decapsulates without error to the implicit-rejection key, which differs
// from the real one and is the same every time.
func TestRoundTrip(t *testing.T) {
	const n = 40
	testutil.EachBackend(t, sets, func(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
		kps, err := mlkem.GenerateKeys(s, n, be)
		if err != nil {
			t.Fatal(err)
		}
		eks, dks := make([][]byte, n), make([][]byte, n)
		for i, kp := range kps {
			if kp.Err != nil {
				t.Fatal(kp.Err)
			}
			eks[i], dks[i] = kp.EncapsulationKey, kp.DecapsulationKey
		}
		encs, err := mlkem.Encaps(s, eks, be)
		if err != nil {
			t.Fatal(err)
		}
		cts, tampered := make([][]byte, n), make([][]byte, n)
		for i, e := range encs {
			if e.Err != nil {
				t.Fatal(e.Err)
			}
			cts[i] = e.Ciphertext
			tampered[i] = append([]byte{}, e.Ciphertext...)
			tampered[i][i%len(tampered[i])] ^= 1 << (i % 8)
		}
		decs, err := mlkem.Decaps(s, dks, cts, be)
		if err != nil {
			t.Fatal(err)
		}
		rej, err := mlkem.Decaps(s, dks, tampered, be)
		if err != nil {
			t.Fatal(err)
		}
		rej2, err := mlkem.Decaps(s, dks, tampered, be)
		if err != nil {
			t.Fatal(err)
		}
		for i := range decs {
			if decs[i].Err != nil || rej[i].Err != nil {
				t.Fatalf("item %d: %v, %v", i, decs[i].Err, rej[i].Err)
			}
			if !bytes.Equal(decs[i].SharedKey, encs[i].SharedKey) {
				t.Errorf("item %d: decapsulated key differs from the encapsulated one", i)
			}
			if bytes.Equal(rej[i].SharedKey, encs[i].SharedKey) {
				t.Errorf("item %d: a tampered ciphertext gave the real key", i)
			}
			if !bytes.Equal(rej[i].SharedKey, rej2[i].SharedKey) {
				t.Errorf("item %d: implicit rejection is not deterministic", i)
			}
		}
		// Two encapsulations to the same key use fresh randomness.
		again, err := mlkem.Encaps(s, eks[:1], be)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(again[0].Ciphertext, encs[0].Ciphertext) {
			t.Error("Encaps repeated a ciphertext: the randomness is not fresh")
		}
	})
}

// TestBackendsAgree: the deterministic operations give the same bytes on every backend, above
// and below the GPU crossover (256).
func TestBackendsAgree(t *testing.T) {
	for _, n := range []int{3, 300} {
		for _, s := range sets {
			seeds, ms := make([][]byte, n), make([][]byte, n)
			for i := range seeds {
				seeds[i] = bytes.Repeat([]byte{byte(i), byte(i >> 8), 7}, 22)[:64]
				ms[i] = bytes.Repeat([]byte{byte(i), 9}, 16)
			}
			var ref []mlkem.Encapsulation
			for _, be := range testutil.Backends() {
				kps, err := mlkem.KeyGen(s, seeds, be)
				if err != nil {
					t.Fatal(err)
				}
				eks := make([][]byte, n)
				for i := range kps {
					eks[i] = kps[i].EncapsulationKey
				}
				encs, err := mlkem.EncapsDeterministic(s, eks, ms, be)
				if err != nil {
					t.Fatal(err)
				}
				if ref == nil {
					ref = encs
					continue
				}
				for i := range encs {
					if !bytes.Equal(encs[i].Ciphertext, ref[i].Ciphertext) || !bytes.Equal(encs[i].SharedKey, ref[i].SharedKey) {
						t.Fatalf("%v n=%d item %d: %v differs from %v", s, n, i, be, testutil.Backends()[0])
					}
				}
			}
		}
	}
}

// TestBadItemsStayAlone: items of the wrong length are item errors, and the good items around
// them get exactly what they get in a batch of their own.
func TestBadItemsStayAlone(t *testing.T) {
	s := mlkem.MLKEM768
	kps, err := mlkem.GenerateKeys(s, 3, zkgpu.Cpu)
	if err != nil {
		t.Fatal(err)
	}
	m := bytes.Repeat([]byte{5}, 32)
	eks := [][]byte{kps[0].EncapsulationKey, kps[1].EncapsulationKey[:100], kps[2].EncapsulationKey, nil}
	ms := [][]byte{m, m, m[:31], m}
	encs, err := mlkem.EncapsDeterministic(s, eks, ms, zkgpu.Cpu)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := mlkem.EncapsDeterministic(s, eks[:1], ms[:1], zkgpu.Cpu)
	if err != nil {
		t.Fatal(err)
	}
	if encs[0].Err != nil || !bytes.Equal(encs[0].Ciphertext, alone[0].Ciphertext) || !bytes.Equal(encs[0].SharedKey, alone[0].SharedKey) {
		t.Fatal("the good item differs next to bad ones")
	}
	for i := 1; i < 4; i++ {
		if !errors.Is(encs[i].Err, zkgpu.ErrInvalidInput) || encs[i].Ciphertext != nil {
			t.Errorf("item %d: %+v, want an ErrInvalidInput item error", i, encs[i])
		}
	}
	decs, err := mlkem.Decaps(s, [][]byte{kps[0].DecapsulationKey, kps[1].DecapsulationKey[1:]}, [][]byte{encs[0].Ciphertext, encs[0].Ciphertext}, zkgpu.Cpu)
	if err != nil {
		t.Fatal(err)
	}
	if decs[0].Err != nil || !bytes.Equal(decs[0].SharedKey, alone[0].SharedKey) || !errors.Is(decs[1].Err, zkgpu.ErrInvalidInput) {
		t.Fatalf("Decaps with a short dk beside a good item: %+v", decs)
	}
}

func TestCallErrors(t *testing.T) {
	if _, err := mlkem.KeyGen(mlkem.ParameterSet(-1), nil, zkgpu.Cpu); !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("unknown set: %v", err)
	}
	if _, err := mlkem.Encaps(mlkem.MLKEM512, nil, zkgpu.Backend(9)); !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("unknown backend: %v", err)
	}
	if _, err := mlkem.Decaps(mlkem.MLKEM512, make([][]byte, 2), make([][]byte, 1), zkgpu.Cpu); !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("mismatched lengths: %v", err)
	}
	if out, err := mlkem.KeyGen(mlkem.MLKEM512, nil, zkgpu.Cpu); err != nil || out == nil || len(out) != 0 {
		t.Errorf("empty batch: %#v, %v", out, err)
	}
	testutil.Unavailable(t, func(be zkgpu.Backend) error {
		_, err := mlkem.GenerateKeys(mlkem.MLKEM512, 2, be)
		return err
	})
}

// Wycheproof (tests/vectors/mlkem, C2SP/wycheproof): every vector of a file in one batch per
// backend, so the known answers also check that items do not disturb each other.

type vector struct {
	TcID   int `json:"tcId"`
	Seed   testutil.Hex
	Ek     testutil.Hex
	Dk     testutil.Hex
	M      testutil.Hex
	C      testutil.Hex
	K      testutil.Hex
	Result string
}

type file struct {
	NumberOfTests int
	TestGroups    []struct{ Tests []vector }
}

func load(t *testing.T, s mlkem.ParameterSet, kind string) []vector {
	var f file
	testutil.Load(t, fmt.Sprintf("mlkem/wycheproof_mlkem_%s_%s.json", s.String()[len("ML-KEM-"):], kind), &f)
	var vs []vector
	for _, g := range f.TestGroups {
		vs = append(vs, g.Tests...)
	}
	if len(vs) != f.NumberOfTests || len(vs) == 0 {
		t.Fatalf("%v %s: %d vectors, the file says %d", s, kind, len(vs), f.NumberOfTests)
	}
	return vs
}

// expect checks one item: an error iff the vector is invalid, else the bytes.
func expect(t *testing.T, v vector, err error, got, want []byte, what string) {
	t.Helper()
	if (err == nil) != (v.Result == "valid") {
		t.Errorf("tcId %d: %s error %v, vector is %s", v.TcID, what, err, v.Result)
		return
	}
	if err == nil && !bytes.Equal(got, want) {
		t.Errorf("tcId %d: %s differs from the known answer", v.TcID, what)
	}
}

func TestWycheproof(t *testing.T) {
	testutil.EachBackend(t, sets, func(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
		wycheproofKeyGen(t, s, be)
		wycheproofEncaps(t, s, be)
		wycheproofSeedThenDecaps(t, s, be)
		wycheproofDecaps(t, s, be)
	})
}

// column is one input of every vector, in order.
func column(vs []vector, in func(v vector) []byte) [][]byte {
	out := make([][]byte, len(vs))
	for i, v := range vs {
		out[i] = in(v)
	}
	return out
}

// keyGen is KeyGen on the vectors' seeds.
func keyGen(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend, vs []vector) []mlkem.KeyPair {
	kps, err := mlkem.KeyGen(s, column(vs, func(v vector) []byte { return v.Seed }), be)
	if err != nil {
		t.Fatal(err)
	}
	return kps
}

// decaps checks Decaps of dks and the vectors' ciphertexts against the vectors' shared keys.
func decaps(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend, vs []vector, dks [][]byte) {
	decs, err := mlkem.Decaps(s, dks, column(vs, func(v vector) []byte { return v.C }), be)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		expect(t, v, decs[i].Err, decs[i].SharedKey, v.K, "K")
	}
}

func wycheproofKeyGen(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "keygen_seed_test")
	for i, kp := range keyGen(t, s, be, vs) {
		expect(t, vs[i], kp.Err, kp.EncapsulationKey, vs[i].Ek, "ek")
		expect(t, vs[i], kp.Err, kp.DecapsulationKey, vs[i].Dk, "dk")
	}
}

func wycheproofEncaps(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "encaps_test")
	eks, ms := column(vs, func(v vector) []byte { return v.Ek }), column(vs, func(v vector) []byte { return v.M })
	encs, err := mlkem.EncapsDeterministic(s, eks, ms, be)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range encs {
		expect(t, vs[i], e.Err, e.Ciphertext, vs[i].C, "c")
		expect(t, vs[i], e.Err, e.SharedKey, vs[i].K, "K")
	}
}

// wycheproofSeedThenDecaps: keys from the seed, then decapsulation (implicit rejection and the
// strcmp cases); an invalid vector has a seed or ciphertext of the wrong length.
func wycheproofSeedThenDecaps(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "test")
	dks := make([][]byte, len(vs))
	for i, kp := range keyGen(t, s, be, vs) {
		dks[i] = kp.DecapsulationKey // nil for a bad seed: Decaps reports it as a wrong length
		if kp.Err == nil && vs[i].Ek != nil && !bytes.Equal(kp.EncapsulationKey, vs[i].Ek) {
			t.Errorf("tcId %d: ek differs", vs[i].TcID)
		}
	}
	decaps(t, s, be, vs, dks)
}

func wycheproofDecaps(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "semi_expanded_decaps_test")
	decaps(t, s, be, vs, column(vs, func(v vector) []byte { return v.Dk }))
}
