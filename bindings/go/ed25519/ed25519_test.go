package ed25519_test

import (
	stded25519 "crypto/ed25519"
	"crypto/sha512"
	"errors"
	"math/big"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"zkgpu"
	"zkgpu/ed25519"
	"zkgpu/internal/testutil"
)

// batch is a batch in the three parallel slices the API takes.
type batch struct {
	pubs []stded25519.PublicKey
	msgs [][]byte
	sigs [][]byte
}

func (b *batch) add(pub, msg, sig []byte) {
	b.pubs = append(b.pubs, pub)
	b.msgs = append(b.msgs, msg)
	b.sigs = append(b.sigs, sig)
}

func (b *batch) len() int { return len(b.pubs) }

// stdVerify is crypto/ed25519.Verify, except that it panics on a wrong-length key where
// BatchVerify answers false (the C ABI's rule): that is the one documented difference.
func stdVerify(pub, msg, sig []byte) bool {
	if len(pub) != stded25519.PublicKeySize {
		return false
	}
	return stded25519.Verify(pub, msg, sig)
}

// signed makes n valid signatures under keys from a seeded generator (so a failure reproduces),
// with message lengths 0..200.
func signed(rng *rand.Rand, n int) *batch {
	b := &batch{}
	keys := make([]stded25519.PrivateKey, 16)
	for i := range keys {
		seed := make([]byte, stded25519.SeedSize)
		rng.Read(seed)
		keys[i] = stded25519.NewKeyFromSeed(seed)
	}
	for i := 0; i < n; i++ {
		k := keys[i%len(keys)]
		msg := make([]byte, rng.Intn(201))
		rng.Read(msg)
		b.add(k.Public().(stded25519.PublicKey), msg, stded25519.Sign(k, msg))
	}
	return b
}

func clone(b []byte) []byte { return append([]byte{}, b...) }

// mutated returns b with each item altered in one of several ways (or not at all).
func mutated(rng *rand.Rand, b *batch) *batch {
	out := &batch{}
	for i := 0; i < b.len(); i++ {
		pub, msg, sig := clone(b.pubs[i]), clone(b.msgs[i]), clone(b.sigs[i])
		switch rng.Intn(9) {
		case 0: // untouched
		case 1:
			sig[rng.Intn(32)] ^= 1 << rng.Intn(8) // R
		case 2:
			sig[32+rng.Intn(32)] ^= 1 << rng.Intn(8) // S
		case 3:
			pub[rng.Intn(32)] ^= 1 << rng.Intn(8)
		case 4:
			if len(msg) == 0 {
				msg = append(msg, 0)
			} else {
				msg[rng.Intn(len(msg))] ^= 1 << rng.Intn(8)
			}
		case 5:
			sig = sig[:rng.Intn(64)] // short signature
		case 6:
			sig = append(sig, 0) // long signature
		case 7:
			pub = pub[:rng.Intn(32)] // short key
		case 8:
			msg = append(msg, byte(rng.Intn(256))) // longer message
		}
		out.add(pub, msg, sig)
	}
	return out
}

// checkAgainstStd compares BatchVerify and BatchVerifyWith(Openssl, every backend) with the
// standard library item by item, and returns how many items were valid.
func checkAgainstStd(t *testing.T, b *batch) int {
	t.Helper()
	want := make([]bool, b.len())
	valid := 0
	for i := range want {
		want[i] = stdVerify(b.pubs[i], b.msgs[i], b.sigs[i])
		if want[i] {
			valid++
		}
	}
	got := ed25519.BatchVerify(b.pubs, b.msgs, b.sigs)
	compare(t, "BatchVerify", got, want)
	for _, be := range testutil.Backends() {
		got, err := ed25519.BatchVerifyWith(b.pubs, b.msgs, b.sigs, ed25519.Options{Mode: ed25519.Openssl, Backend: be})
		if err != nil {
			t.Fatalf("BatchVerifyWith(%v): %v", be, err)
		}
		compare(t, "BatchVerifyWith(openssl, "+be.String()+")", got, want)
	}
	return valid
}

func compare(t *testing.T, what string, got, want []bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d verdicts for %d items", what, len(got), len(want))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad < 5 {
				t.Errorf("%s: item %d: got %v, want %v", what, i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d verdicts differ", what, bad, len(got))
	}
}

func TestRandomValidSignatures(t *testing.T) {
	b := signed(rand.New(rand.NewSource(1)), 300)
	if v := checkAgainstStd(t, b); v != b.len() {
		t.Fatalf("%d of %d fresh signatures verify under crypto/ed25519", v, b.len())
	}
}

func TestMutatedSignatures(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	b := mutated(rng, signed(rng, 600))
	v := checkAgainstStd(t, b)
	// The mutations must give both verdicts, or the comparison proves little.
	if v == 0 || v == b.len() {
		t.Fatalf("%d of %d mutated items valid: the corpus does not exercise both verdicts", v, b.len())
	}
}

// TestLargeBatch is big enough for Auto to take the GPU on a machine that has one (crossover
// 128), and for the library to ask for the copy in pieces on several threads at once.
func TestLargeBatch(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	b := mutated(rng, signed(rng, 5000))
	checkAgainstStd(t, b)
}

func TestSmallBatches(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, n := range []int{1, 2, 31, 32, 33, 127, 128, 129} {
		checkAgainstStd(t, mutated(rng, signed(rng, n)))
	}
}

func TestEmptyBatch(t *testing.T) {
	got := ed25519.BatchVerify(nil, nil, nil)
	if got == nil || len(got) != 0 {
		t.Fatalf("BatchVerify(nil, nil, nil) = %#v, want an empty non-nil slice", got)
	}
	got, err := ed25519.BatchVerifyWith([]stded25519.PublicKey{}, [][]byte{}, [][]byte{}, ed25519.Options{Mode: ed25519.Zip215})
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("BatchVerifyWith of 0 items = %#v, %v", got, err)
	}
}

func TestEmptyMessages(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	b := &batch{}
	seed := make([]byte, 32)
	for i := 0; i < 40; i++ {
		rng.Read(seed)
		k := stded25519.NewKeyFromSeed(seed)
		var msg []byte // nil on even items, empty but non-nil on odd ones: both are the empty message
		if i%2 == 1 {
			msg = []byte{}
		}
		b.add(k.Public().(stded25519.PublicKey), msg, stded25519.Sign(k, msg))
	}
	if v := checkAgainstStd(t, b); v != b.len() {
		t.Fatalf("%d of %d signatures of empty messages verify", v, b.len())
	}
	// And the empty message is not some other message: a signature of "" fails for "\x00".
	if ed25519.BatchVerify(b.pubs[:1], [][]byte{{0}}, b.sigs[:1])[0] {
		t.Fatal("a signature of the empty message verifies for \"\\x00\"")
	}
}

func TestWrongLengthsAreInvalidNotPanics(t *testing.T) {
	good := signed(rand.New(rand.NewSource(6)), 1)
	pub, msg, sig := good.pubs[0], good.msgs[0], good.sigs[0]
	b := &batch{}
	b.add(pub, msg, sig) // the one valid item, to show the bad ones do not disturb it
	for _, l := range []int{0, 31, 33, 64} {
		b.add(append(clone(pub), make([]byte, 64)...)[:l], msg, sig)
	}
	b.add(nil, msg, sig)
	for _, l := range []int{0, 32, 63, 65, 128} {
		b.add(pub, msg, append(clone(sig), make([]byte, 64)...)[:l])
	}
	b.add(pub, msg, nil)
	for _, mode := range []ed25519.Mode{ed25519.Openssl, ed25519.Strict, ed25519.Zip215} {
		for _, be := range testutil.Backends() {
			got, err := ed25519.BatchVerifyWith(b.pubs, b.msgs, b.sigs, ed25519.Options{Mode: mode, Backend: be})
			if err != nil {
				t.Fatalf("%v/%v: %v", mode, be, err)
			}
			want := make([]bool, b.len())
			want[0] = true
			compare(t, mode.String()+"/"+be.String(), got, want)
		}
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	b := signed(rand.New(rand.NewSource(7)), 2)
	for _, c := range []struct {
		name             string
		pubs             []stded25519.PublicKey
		msgs, sigs       [][]byte
		pubN, msgN, sigN int
	}{
		{"msgs", b.pubs, b.msgs[:1], b.sigs, 2, 1, 2},
		{"sigs", b.pubs, b.msgs, b.sigs[:1], 2, 2, 1},
		{"pubs", b.pubs[:1], b.msgs, b.sigs, 1, 2, 2},
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil {
					t.Errorf("%s: BatchVerify did not panic", c.name)
				} else if !strings.Contains(r.(string), "public keys") {
					t.Errorf("%s: panic %q does not name the lengths", c.name, r)
				}
			}()
			ed25519.BatchVerify(c.pubs, c.msgs, c.sigs)
		}()
		_, err := ed25519.BatchVerifyWith(c.pubs, c.msgs, c.sigs, ed25519.Options{})
		if !errors.Is(err, zkgpu.ErrInvalidArgument) {
			t.Errorf("%s: BatchVerifyWith error %v, want ErrInvalidArgument", c.name, err)
		}
	}
}

func TestBadOptions(t *testing.T) {
	b := signed(rand.New(rand.NewSource(8)), 1)
	for _, o := range []ed25519.Options{{Mode: 3}, {Mode: -1}, {Backend: 3}, {Backend: -1}} {
		for _, bb := range []*batch{b, {}} { // also with zero items: options are checked first
			_, err := ed25519.BatchVerifyWith(bb.pubs, bb.msgs, bb.sigs, o)
			var e *zkgpu.Error
			if !errors.Is(err, zkgpu.ErrInvalidArgument) || !errors.As(err, &e) || e.Message == "" {
				t.Errorf("%+v with %d items: error %v, want ErrInvalidArgument with a message", o, bb.len(), err)
			}
		}
	}
}

// TestCudaUnavailable: without a usable GPU, Cuda is an error carrying the library's message,
// never a silent CPU run; Auto still works.
func TestCudaUnavailable(t *testing.T) {
	if zkgpu.CudaUsable() {
		t.Skip("a GPU is usable here: Cuda is covered by the comparisons above")
	}
	b := signed(rand.New(rand.NewSource(9)), 200)
	_, err := ed25519.BatchVerifyWith(b.pubs, b.msgs, b.sigs, ed25519.Options{Backend: zkgpu.Cuda})
	var e *zkgpu.Error
	if !errors.Is(err, zkgpu.ErrUnavailable) || !errors.As(err, &e) || e.Message == "" {
		t.Fatalf("Cuda without a GPU: error %v, want ErrUnavailable with the library's message", err)
	}
	if errors.Is(err, zkgpu.ErrInvalidArgument) {
		t.Fatal("ErrUnavailable also matches ErrInvalidArgument")
	}
	t.Logf("Cuda without a GPU: %v", err)
}

// TestErrorMessageIsPerThread calls failing and succeeding batches from many goroutines at once:
// each failure must carry its own message (zkgpu_last_error is thread-local, and every successful
// call clears it), and the verdicts must not depend on what runs beside them.
func TestErrorMessageIsPerThread(t *testing.T) {
	b := mutated(rand.New(rand.NewSource(10)), signed(rand.New(rand.NewSource(10)), 64))
	want := ed25519.BatchVerify(b.pubs, b.msgs, b.sigs)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if g%2 == 0 && !zkgpu.CudaUsable() {
					_, err := ed25519.BatchVerifyWith(b.pubs, b.msgs, b.sigs, ed25519.Options{Backend: zkgpu.Cuda})
					var e *zkgpu.Error
					if !errors.As(err, &e) || e.Status != zkgpu.StatusUnavailable || e.Message == "" {
						t.Errorf("goroutine %d: %v", g, err)
						return
					}
					continue
				}
				got, err := ed25519.BatchVerifyWith(b.pubs, b.msgs, b.sigs, ed25519.Options{Backend: zkgpu.Cpu})
				if err != nil {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
				compare(t, "concurrent", got, want)
			}
		}(g)
	}
	wg.Wait()
}

// Edge cases built here: S + L (malleability) and a small-order key.

var groupOrder, _ = new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)

func leToInt(b []byte) *big.Int {
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	return new(big.Int).SetBytes(be)
}

func intToLE32(x *big.Int) []byte {
	be := x.FillBytes(make([]byte, 32))
	le := make([]byte, 32)
	for i := range be {
		le[31-i] = be[i]
	}
	return le
}

// smallOrderKeySignature is a signature that verifies under the identity point as public key
// (small order: [8]A = O trivially): R = [s]B for a known scalar s and S = s, so that
// [S]B - [k]A = [s]B = R for any k. Go, OpenSSL and ZIP-215 accept it; strict rejects it.
func smallOrderKeySignature(msg []byte) (pub, sig []byte) {
	seed := make([]byte, 32)
	seed[0] = 42
	// [s]B is the public key of seed, s its clamped SHA-512 half (RFC 8032 5.1.5), taken mod L.
	h := sha512.Sum512(seed)
	h[0] &= 248
	h[31] &= 127
	h[31] |= 64
	s := new(big.Int).Mod(leToInt(h[:32]), groupOrder)
	r := stded25519.NewKeyFromSeed(seed).Public().(stded25519.PublicKey)
	pub = make([]byte, 32)
	pub[0] = 1 // the identity (0, 1)
	return pub, append(clone(r), intToLE32(s)...)
}

func TestEdgeCasesAcrossModes(t *testing.T) {
	good := signed(rand.New(rand.NewSource(11)), 1)
	pub, msg, sig := good.pubs[0], good.msgs[0], good.sigs[0]
	// S + L: the same equation holds, but S is not canonical.
	sPlusL := append(clone(sig[:32]), intToLE32(new(big.Int).Add(leToInt(sig[32:]), groupOrder))...)
	soPub, soSig := smallOrderKeySignature(msg)
	cases := []struct {
		name                    string
		pub, sig                []byte
		openssl, strict, zip215 bool
	}{
		{"valid", pub, sig, true, true, true},
		{"S+L", pub, sPlusL, false, false, false},
		{"small-order key", soPub, soSig, true, false, true},
	}
	for _, c := range cases {
		if got := stdVerify(c.pub, msg, c.sig); got != c.openssl {
			t.Fatalf("%s: crypto/ed25519 says %v: the constructed case is wrong", c.name, got)
		}
		for _, m := range []struct {
			mode ed25519.Mode
			want bool
		}{{ed25519.Openssl, c.openssl}, {ed25519.Strict, c.strict}, {ed25519.Zip215, c.zip215}} {
			for _, be := range testutil.Backends() {
				got, err := ed25519.BatchVerifyWith([]stded25519.PublicKey{c.pub}, [][]byte{msg}, [][]byte{c.sig},
					ed25519.Options{Mode: m.mode, Backend: be})
				if err != nil {
					t.Fatal(err)
				}
				if got[0] != m.want {
					t.Errorf("%s under %v on %v: %v, want %v", c.name, m.mode, be, got[0], m.want)
				}
			}
		}
	}
}

// labelled is one vector of tests/vectors/ed25519/edge_cases_labelled_by_semantics.json.
type labelled struct {
	Set     string
	ID      int
	Pk      testutil.Hex
	Msg     testutil.Hex
	Sig     testutil.Hex
	Results map[string]bool
}

// TestLabelledEdgeCases runs the 1077 labelled vectors (speccheck, CCTV, Wycheproof: small-order
// and non-canonical A and R, S >= L, torsion, wrong lengths) through every mode and backend,
// against the label column of each mode (docs/ed25519.md), and checks that crypto/ed25519 agrees
// with the Openssl column, which is the claim BatchVerify's equality with it rests on.
func TestLabelledEdgeCases(t *testing.T) {
	var vs []labelled
	testutil.Load(t, "ed25519/edge_cases_labelled_by_semantics.json", &vs)
	if len(vs) != 1077 {
		t.Fatalf("%d labelled vectors, want 1077", len(vs))
	}
	b := &batch{}
	for _, v := range vs {
		b.add(stded25519.PublicKey(v.Pk), v.Msg, v.Sig)
	}
	columns := map[ed25519.Mode]string{
		ed25519.Openssl: "go_openssl_boringssl_dalek_verify",
		ed25519.Strict:  "dalek_verify_strict",
		ed25519.Zip215:  "zip215_zebra_consensus",
	}
	accepted := map[ed25519.Mode]int{}
	for mode, col := range columns {
		want := make([]bool, len(vs))
		for i, v := range vs {
			r, ok := v.Results[col]
			if !ok {
				t.Fatalf("%s %d: no label %s", v.Set, v.ID, col)
			}
			want[i] = r
			if r {
				accepted[mode]++
			}
		}
		for _, be := range testutil.Backends() {
			got, err := ed25519.BatchVerifyWith(b.pubs, b.msgs, b.sigs, ed25519.Options{Mode: mode, Backend: be})
			if err != nil {
				t.Fatal(err)
			}
			compare(t, "labelled/"+mode.String()+"/"+be.String(), got, want)
		}
		if mode == ed25519.Openssl {
			std := make([]bool, len(vs))
			for i := range vs {
				std[i] = stdVerify(b.pubs[i], b.msgs[i], b.sigs[i])
			}
			compare(t, "crypto/ed25519 against the openssl labels", std, want)
			compare(t, "BatchVerify against the openssl labels", ed25519.BatchVerify(b.pubs, b.msgs, b.sigs), want)
		}
	}
	// The three modes differ on this corpus (301 / 132 / 924 accepted), and each accepts a subset
	// of the next: strict of openssl, openssl of zip215.
	if !(accepted[ed25519.Strict] < accepted[ed25519.Openssl] && accepted[ed25519.Openssl] < accepted[ed25519.Zip215]) {
		t.Fatalf("accepted per mode %v: the labels do not separate the modes", accepted)
	}
}

// TestModesNest: on random and mutated signatures (no crafted torsion), every signature Go
// accepts is accepted under Zip215, and every one Strict accepts is accepted by Go.
func TestModesNest(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	b := mutated(rng, signed(rng, 400))
	verdicts := map[ed25519.Mode][]bool{}
	for _, m := range []ed25519.Mode{ed25519.Openssl, ed25519.Strict, ed25519.Zip215} {
		v, err := ed25519.BatchVerifyWith(b.pubs, b.msgs, b.sigs, ed25519.Options{Mode: m})
		if err != nil {
			t.Fatal(err)
		}
		verdicts[m] = v
	}
	for i := 0; i < b.len(); i++ {
		o, s, z := verdicts[ed25519.Openssl][i], verdicts[ed25519.Strict][i], verdicts[ed25519.Zip215][i]
		if (o && !z) || (s && !o) {
			t.Errorf("item %d: openssl %v, strict %v, zip215 %v", i, o, s, z)
		}
	}
}

func TestModeNames(t *testing.T) {
	testutil.Names(t, map[ed25519.Mode]string{
		ed25519.Openssl: "openssl", ed25519.Strict: "strict", ed25519.Zip215: "zip215", 3: "Mode(3)", -1: "Mode(-1)",
	})
}
