// A Go program that verifies a batch of Ed25519 signatures with zkgpu, built against an installed
// library:
//
//	PKG_CONFIG_PATH=<prefix>/lib/pkgconfig LD_LIBRARY_PATH=<prefix>/lib go run .
//
// It signs a batch with crypto/ed25519, spoils one signature, verifies the batch with
// ed25519.BatchVerify and checks every verdict against crypto/ed25519.Verify. Exit status 0 when
// they agree and the spoiled signature alone is rejected, 1 otherwise.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"

	"zkgpu"
	zked25519 "zkgpu/ed25519"
)

func main() {
	const n = 1000 // above the library's GPU crossover (128), so Auto uses a GPU where there is one
	pubs := make([]ed25519.PublicKey, n)
	msgs := make([][]byte, n)
	sigs := make([][]byte, n)
	for i := range pubs {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			fail(err)
		}
		pubs[i], msgs[i] = pub, []byte(fmt.Sprintf("message %d", i))
		sigs[i] = ed25519.Sign(priv, msgs[i])
	}
	sigs[n/2][0] ^= 1

	ok := zked25519.BatchVerify(pubs, msgs, sigs)

	valid := 0
	for i := range ok {
		if ok[i] != ed25519.Verify(pubs[i], msgs[i], sigs[i]) {
			fail(fmt.Errorf("item %d: zkgpu says %v, crypto/ed25519 disagrees", i, ok[i]))
		}
		if ok[i] {
			valid++
		}
	}
	if valid != n-1 || ok[n/2] {
		fail(fmt.Errorf("%d of %d valid, want all but item %d", valid, n, n/2))
	}
	fmt.Printf("zkgpu %s (GPU usable: %v): %d of %d signatures valid, as crypto/ed25519 says\n",
		zkgpu.Version(), zkgpu.CudaUsable(), valid, n)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "example:", err)
	os.Exit(1)
}
