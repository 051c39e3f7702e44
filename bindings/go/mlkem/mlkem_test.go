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
	want := map[mlkem.ParameterSet][3]int{
		mlkem.MLKEM512: {800, 1632, 768}, mlkem.MLKEM768: {1184, 2400, 1088}, mlkem.MLKEM1024: {1568, 3168, 1568},
	}
	for _, s := range sets {
		sz, err := s.Sizes()
		if err != nil {
			t.Fatal(err)
		}
		if w := want[s]; sz.EncapsulationKey != w[0] || sz.DecapsulationKey != w[1] || sz.Ciphertext != w[2] ||
			sz.Seed != 64 || sz.Message != 32 || sz.SharedKey != 32 {
			t.Errorf("%v: sizes %+v", s, sz)
		}
	}
	if _, err := mlkem.ParameterSet(3).Sizes(); !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("ParameterSet(3).Sizes(): %v, want ErrInvalidArgument", err)
	}
}

// TestRoundTrip: fresh keys, random encapsulation, decapsulation gives the sender's key; a
// tampered ciphertext decapsulates without error to the implicit-rejection key, which differs
// from the real one and is the same every time.
func TestRoundTrip(t *testing.T) {
	const n = 40
	for _, s := range sets {
		for _, be := range testutil.Backends() {
			t.Run(s.String()+"/"+be.String(), func(t *testing.T) {
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
	}
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
	if !zkgpu.CudaUsable() {
		_, err := mlkem.GenerateKeys(mlkem.MLKEM512, 2, zkgpu.Cuda)
		var e *zkgpu.Error
		if !errors.Is(err, zkgpu.ErrUnavailable) || !errors.As(err, &e) || e.Message == "" {
			t.Errorf("Cuda without a GPU: %v, want ErrUnavailable with the library's message", err)
		}
	}
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
	for _, s := range sets {
		for _, be := range testutil.Backends() {
			t.Run(s.String()+"/"+be.String(), func(t *testing.T) {
				wycheproofKeyGen(t, s, be)
				wycheproofEncaps(t, s, be)
				wycheproofSeedThenDecaps(t, s, be)
				wycheproofDecaps(t, s, be)
			})
		}
	}
}

func wycheproofKeyGen(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "keygen_seed_test")
	seeds := make([][]byte, len(vs))
	for i, v := range vs {
		seeds[i] = v.Seed
	}
	kps, err := mlkem.KeyGen(s, seeds, be)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		expect(t, v, kps[i].Err, kps[i].EncapsulationKey, v.Ek, "ek")
		expect(t, v, kps[i].Err, kps[i].DecapsulationKey, v.Dk, "dk")
	}
}

func wycheproofEncaps(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "encaps_test")
	eks, ms := make([][]byte, len(vs)), make([][]byte, len(vs))
	for i, v := range vs {
		eks[i], ms[i] = v.Ek, v.M
	}
	encs, err := mlkem.EncapsDeterministic(s, eks, ms, be)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		expect(t, v, encs[i].Err, encs[i].Ciphertext, v.C, "c")
		expect(t, v, encs[i].Err, encs[i].SharedKey, v.K, "K")
	}
}

// wycheproofSeedThenDecaps: keys from the seed, then decapsulation (implicit rejection and the
// strcmp cases); an invalid vector has a seed or ciphertext of the wrong length.
func wycheproofSeedThenDecaps(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "test")
	seeds, cs := make([][]byte, len(vs)), make([][]byte, len(vs))
	for i, v := range vs {
		seeds[i], cs[i] = v.Seed, v.C
	}
	kps, err := mlkem.KeyGen(s, seeds, be)
	if err != nil {
		t.Fatal(err)
	}
	dks := make([][]byte, len(vs))
	for i := range kps {
		dks[i] = kps[i].DecapsulationKey // nil for a bad seed: Decaps reports it as a wrong length
		if kps[i].Err == nil && vs[i].Ek != nil && !bytes.Equal(kps[i].EncapsulationKey, vs[i].Ek) {
			t.Errorf("tcId %d: ek differs", vs[i].TcID)
		}
	}
	decs, err := mlkem.Decaps(s, dks, cs, be)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		expect(t, v, decs[i].Err, decs[i].SharedKey, v.K, "K")
	}
}

func wycheproofDecaps(t *testing.T, s mlkem.ParameterSet, be zkgpu.Backend) {
	vs := load(t, s, "semi_expanded_decaps_test")
	dks, cs := make([][]byte, len(vs)), make([][]byte, len(vs))
	for i, v := range vs {
		dks[i], cs[i] = v.Dk, v.C
	}
	decs, err := mlkem.Decaps(s, dks, cs, be)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		expect(t, v, decs[i].Err, decs[i].SharedKey, v.K, "K")
	}
}
