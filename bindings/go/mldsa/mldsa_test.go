package mldsa_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"zkgpu"
	"zkgpu/internal/testutil"
	"zkgpu/mldsa"
)

var sets = []mldsa.ParameterSet{mldsa.MLDSA44, mldsa.MLDSA65, mldsa.MLDSA87}

func TestSizes(t *testing.T) {
	// FIPS 204, Table 2.
	sizes := func(pk, sk, sig int) mldsa.Sizes {
		return mldsa.Sizes{PublicKey: pk, SecretKey: sk, Signature: sig, Seed: 32, Rnd: 32, Mu: 64, MaxContext: 255}
	}
	testutil.Sizes(t, mldsa.ParameterSet.Sizes, map[mldsa.ParameterSet]mldsa.Sizes{
		mldsa.MLDSA44: sizes(1312, 2560, 2420), mldsa.MLDSA65: sizes(1952, 4032, 3309), mldsa.MLDSA87: sizes(2592, 4896, 4627),
	})
	testutil.Names(t, map[mldsa.ParameterSet]string{
		mldsa.MLDSA44: "ML-DSA-44", mldsa.MLDSA65: "ML-DSA-65", mldsa.MLDSA87: "ML-DSA-87", 3: "ParameterSet(3)", -1: "ParameterSet(-1)",
	})
}

// TestSignVerify: fresh keys sign messages (hedged and deterministic, with and without
// contexts); every signature verifies, and a tampered signature, message, context or key does
// not.
func TestSignVerify(t *testing.T) {
	const n = 12
	testutil.EachBackend(t, sets, func(t *testing.T, s mldsa.ParameterSet, be zkgpu.Backend) {
		kps, err := mldsa.GenerateKeys(s, n, be)
		if err != nil {
			t.Fatal(err)
		}
		items := make([]mldsa.SignItem, n)
		for i := range items {
			if kps[i].Err != nil {
				t.Fatal(kps[i].Err)
			}
			items[i] = mldsa.SignItem{SecretKey: kps[i].SecretKey, Message: bytes.Repeat([]byte{byte(i)}, i*7)}
			if i%3 == 1 {
				items[i].Context = []byte(fmt.Sprintf("context %d", i))
			}
		}
		for _, det := range []bool{false, true} {
			sigs, err := mldsa.Sign(s, items, mldsa.SignOptions{Backend: be, Deterministic: det})
			if err != nil {
				t.Fatal(err)
			}
			var ok, bad []mldsa.VerifyItem
			for i, r := range sigs {
				if r.Err != nil {
					t.Fatalf("item %d: %v", i, r.Err)
				}
				v := mldsa.VerifyItem{PublicKey: kps[i].PublicKey, Message: items[i].Message, Context: items[i].Context, Signature: r.Signature}
				ok = append(ok, v)
				tampered := v
				switch i % 4 {
				case 0:
					tampered.Signature = append([]byte{}, v.Signature...)
					tampered.Signature[i] ^= 1
				case 1:
					tampered.Message = append(append([]byte{}, v.Message...), 0)
				case 2:
					tampered.Context = []byte("another context")
				case 3:
					tampered.PublicKey = kps[(i+1)%n].PublicKey
				}
				bad = append(bad, tampered)
			}
			got, err := mldsa.Verify(s, append(ok, bad...), mldsa.VerifyOptions{Backend: be})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range got {
				if v != (i < n) {
					t.Errorf("deterministic=%v item %d: verdict %v", det, i, v)
				}
			}
		}
		// Hedged signing draws fresh randomness; deterministic signing repeats itself.
		h1, _ := mldsa.Sign(s, items[:1], mldsa.SignOptions{Backend: be})
		h2, _ := mldsa.Sign(s, items[:1], mldsa.SignOptions{Backend: be})
		d1, _ := mldsa.Sign(s, items[:1], mldsa.SignOptions{Backend: be, Deterministic: true})
		d2, _ := mldsa.Sign(s, items[:1], mldsa.SignOptions{Backend: be, Deterministic: true})
		if bytes.Equal(h1[0].Signature, h2[0].Signature) || !bytes.Equal(d1[0].Signature, d2[0].Signature) {
			t.Error("hedged signatures repeat, or deterministic ones do not")
		}
		// An empty, non-nil Rnd is deterministic even when the call is hedged.
		e := items[0]
		e.Rnd = []byte{}
		e1, _ := mldsa.Sign(s, []mldsa.SignItem{e}, mldsa.SignOptions{Backend: be})
		if !bytes.Equal(e1[0].Signature, d1[0].Signature) {
			t.Error("an empty Rnd did not sign deterministically")
		}
	})
}

// TestBackendsAgree: deterministic signing and verification give the same bytes on every
// backend, above and below the GPU crossover (256).
func TestBackendsAgree(t *testing.T) {
	const n = 260
	s := mldsa.MLDSA65
	seeds := make([][]byte, n)
	for i := range seeds {
		seeds[i] = bytes.Repeat([]byte{byte(i), byte(i >> 8)}, 16)
	}
	var refSigs []mldsa.SignResult
	for _, be := range testutil.Backends() {
		kps, err := mldsa.KeyGen(s, seeds, be)
		if err != nil {
			t.Fatal(err)
		}
		items := make([]mldsa.SignItem, n)
		for i := range items {
			items[i] = mldsa.SignItem{SecretKey: kps[i].SecretKey, Message: []byte{byte(i)}}
		}
		sigs, err := mldsa.Sign(s, items, mldsa.SignOptions{Backend: be, Deterministic: true})
		if err != nil {
			t.Fatal(err)
		}
		if refSigs == nil {
			refSigs = sigs
			continue
		}
		for i := range sigs {
			if !bytes.Equal(sigs[i].Signature, refSigs[i].Signature) {
				t.Fatalf("item %d: %v signs differently", i, be)
			}
		}
	}
}

func TestItemErrors(t *testing.T) {
	s := mldsa.MLDSA44
	kps, err := mldsa.GenerateKeys(s, 1, zkgpu.Cpu)
	if err != nil {
		t.Fatal(err)
	}
	sk := kps[0].SecretKey
	items := []mldsa.SignItem{
		{SecretKey: sk, Message: []byte("ok")},
		{SecretKey: sk[:10], Message: []byte("short key")},
		{SecretKey: sk, Message: []byte("long context"), Context: make([]byte, 256)},
		{SecretKey: sk, Message: []byte("short rnd"), Rnd: make([]byte, 31)},
	}
	sigs, err := mldsa.Sign(s, items, mldsa.SignOptions{Backend: zkgpu.Cpu, Deterministic: true})
	if err != nil {
		t.Fatal(err)
	}
	alone, _ := mldsa.Sign(s, items[:1], mldsa.SignOptions{Backend: zkgpu.Cpu, Deterministic: true})
	if sigs[0].Err != nil || !bytes.Equal(sigs[0].Signature, alone[0].Signature) {
		t.Fatal("the good item differs next to bad ones")
	}
	for i, want := range []string{"", "secret key is 10 bytes", "context is 256 bytes", "rnd is 31 bytes"} {
		if i == 0 {
			continue
		}
		if !errors.Is(sigs[i].Err, zkgpu.ErrInvalidInput) || sigs[i].Signature != nil ||
			!bytes.Contains([]byte(sigs[i].Err.Error()), []byte(want)) {
			t.Errorf("item %d: %+v, want an ErrInvalidInput saying %q", i, sigs[i], want)
		}
	}
	// Wrong lengths in verification are false, not errors; the good item still verifies.
	got, err := mldsa.Verify(s, []mldsa.VerifyItem{
		{PublicKey: kps[0].PublicKey, Message: []byte("ok"), Signature: sigs[0].Signature},
		{PublicKey: kps[0].PublicKey[1:], Message: []byte("ok"), Signature: sigs[0].Signature},
		{PublicKey: kps[0].PublicKey, Message: []byte("ok"), Signature: sigs[0].Signature[1:]},
		{PublicKey: kps[0].PublicKey, Message: []byte("ok"), Context: make([]byte, 256), Signature: sigs[0].Signature},
	}, mldsa.VerifyOptions{Backend: zkgpu.Cpu})
	if err != nil || len(got) != 4 || !got[0] || got[1] || got[2] || got[3] {
		t.Fatalf("Verify with wrong lengths: %v, %v", got, err)
	}
}

func TestCallErrors(t *testing.T) {
	if _, err := mldsa.Sign(mldsa.ParameterSet(5), nil, mldsa.SignOptions{}); !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("unknown set: %v", err)
	}
	if _, err := mldsa.Verify(mldsa.MLDSA44, nil, mldsa.VerifyOptions{Backend: -1}); !errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Errorf("unknown backend: %v", err)
	}
	if out, err := mldsa.Verify(mldsa.MLDSA44, nil, mldsa.VerifyOptions{}); err != nil || out == nil || len(out) != 0 {
		t.Errorf("empty batch: %#v, %v", out, err)
	}
	testutil.Unavailable(t, func(be zkgpu.Backend) error {
		_, err := mldsa.GenerateKeys(mldsa.MLDSA44, 1, be)
		return err
	})
}

// Wycheproof (tests/vectors/mldsa, C2SP/wycheproof): signing from the seed and from the expanded
// key (deterministic, hedged with the given rnd, contexts, external mu, malformed keys) and
// verification, each file in one batch per kind of call.

type signTest struct {
	TcID   int `json:"tcId"`
	Msg    testutil.Hex
	Mu     testutil.Hex
	Ctx    testutil.Hex
	Rnd    testutil.Hex
	Sig    testutil.Hex
	Result string
}

type signFile struct {
	NumberOfTests int
	TestGroups    []struct {
		PrivateSeed testutil.Hex
		PrivateKey  testutil.Hex
		PublicKey   testutil.Hex
		Tests       []signTest
	}
}

func setName(s mldsa.ParameterSet) string { return s.String()[len("ML-DSA-"):] }

func TestWycheproofSign(t *testing.T) {
	for _, s := range sets {
		for _, seeded := range []bool{true, false} {
			kind := map[bool]string{true: "sign_seed_test", false: "sign_noseed_test"}[seeded]
			var f signFile
			testutil.Load(t, fmt.Sprintf("mldsa/wycheproof_mldsa_%s_%s.json", setName(s), kind), &f)
			for _, be := range testutil.Backends() {
				t.Run(s.String()+"/"+kind+"/"+be.String(), func(t *testing.T) {
					if n := wycheproofSign(t, s, be, &f, seeded); n != f.NumberOfTests {
						t.Fatalf("%d tests run, the file has %d", n, f.NumberOfTests)
					}
				})
			}
		}
	}
}

func wycheproofSign(t *testing.T, s mldsa.ParameterSet, be zkgpu.Backend, f *signFile, seeded bool) int {
	sks, pks := make([][]byte, len(f.TestGroups)), make([][]byte, len(f.TestGroups))
	if seeded {
		seeds := make([][]byte, len(f.TestGroups))
		for g := range f.TestGroups {
			seeds[g] = f.TestGroups[g].PrivateSeed
		}
		kps, err := mldsa.KeyGen(s, seeds, be)
		if err != nil {
			t.Fatal(err)
		}
		for g, kp := range kps {
			sks[g], pks[g] = kp.SecretKey, kp.PublicKey // nil for a bad seed: a wrong-length key below
			if kp.Err == nil && f.TestGroups[g].PublicKey != nil && !bytes.Equal(kp.PublicKey, f.TestGroups[g].PublicKey) {
				t.Errorf("group %d: public key from the seed differs", g)
			}
		}
	} else {
		for g := range f.TestGroups {
			sks[g] = f.TestGroups[g].PrivateKey
		}
	}
	// Two batches: the tests with a message, and those that give only mu (external mu).
	type ref struct{ g, t int }
	var items [2][]mldsa.SignItem
	var refs [2][]ref
	for g, grp := range f.TestGroups {
		for i, tc := range grp.Tests {
			ext := 0
			item := mldsa.SignItem{SecretKey: sks[g], Message: tc.Msg, Context: tc.Ctx, Rnd: tc.Rnd}
			if tc.Msg == nil {
				ext, item = 1, mldsa.SignItem{SecretKey: sks[g], Message: tc.Mu, Rnd: tc.Rnd}
			}
			items[ext] = append(items[ext], item)
			refs[ext] = append(refs[ext], ref{g, i})
		}
	}
	n := 0
	for ext := range items {
		sigs, err := mldsa.Sign(s, items[ext], mldsa.SignOptions{Backend: be, Deterministic: true, ExternalMu: ext == 1})
		if err != nil {
			t.Fatal(err)
		}
		var verify []mldsa.VerifyItem
		for i, r := range refs[ext] {
			n++
			tc := f.TestGroups[r.g].Tests[r.t]
			if (sigs[i].Err == nil) != (tc.Result == "valid") {
				t.Errorf("tcId %d: error %v, vector is %s", tc.TcID, sigs[i].Err, tc.Result)
				continue
			}
			if sigs[i].Err != nil {
				continue
			}
			if !bytes.Equal(sigs[i].Signature, tc.Sig) {
				t.Errorf("tcId %d: signature differs from the known answer", tc.TcID)
			}
			if pks[r.g] != nil {
				verify = append(verify, mldsa.VerifyItem{PublicKey: pks[r.g], Message: items[ext][i].Message,
					Context: items[ext][i].Context, Signature: sigs[i].Signature})
			}
		}
		ok, err := mldsa.Verify(s, verify, mldsa.VerifyOptions{Backend: be, ExternalMu: ext == 1})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range ok {
			if !v {
				t.Errorf("known-answer signature %d (external mu %d) does not verify", i, ext)
			}
		}
	}
	return n
}

type verifyFile struct {
	NumberOfTests int
	TestGroups    []struct {
		PublicKey testutil.Hex
		Tests     []signTest
	}
}

func TestWycheproofVerify(t *testing.T) {
	for _, s := range sets {
		var f verifyFile
		testutil.Load(t, fmt.Sprintf("mldsa/wycheproof_mldsa_%s_verify_test.json", setName(s)), &f)
		var items []mldsa.VerifyItem
		var tcs []signTest
		for _, g := range f.TestGroups {
			for _, tc := range g.Tests {
				items = append(items, mldsa.VerifyItem{PublicKey: g.PublicKey, Message: tc.Msg, Context: tc.Ctx, Signature: tc.Sig})
				tcs = append(tcs, tc)
			}
		}
		if len(items) != f.NumberOfTests {
			t.Fatalf("%v: %d tests, the file says %d", s, len(items), f.NumberOfTests)
		}
		for _, be := range testutil.Backends() {
			got, err := mldsa.Verify(s, items, mldsa.VerifyOptions{Backend: be})
			if err != nil {
				t.Fatal(err)
			}
			valid := 0
			for i, tc := range tcs {
				if got[i] != (tc.Result == "valid") {
					t.Errorf("%v/%v tcId %d: %v, vector is %s", s, be, tc.TcID, got[i], tc.Result)
				}
				if got[i] {
					valid++
				}
			}
			if valid == 0 || valid == len(tcs) {
				t.Errorf("%v: %d of %d valid: the file does not exercise both verdicts", s, valid, len(tcs))
			}
		}
	}
}
