/* zkgpu from C: verify a batch of Ed25519 signatures and permute a Poseidon2 state.
 *
 *   cc -std=c99 verify_and_permute.c $(pkg-config --cflags --libs zkgpu) -o verify_and_permute
 *
 * The batch holds RFC 8032's TEST 1 signature and a copy with one bit flipped; the state is
 * Plonky3's width-16 test input. Exits 0 when the library gives the known answers (and, given an
 * argument, reports that version). */
#include <stdio.h>
#include <string.h>

#include "zkgpu.h"

static void from_hex(const char* hex, uint8_t* out, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) {
    unsigned v = 0;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

int main(int argc, char** argv) {
  uint8_t pk[32], sig[2][64], verdicts[2];
  const uint8_t* pks[2] = {pk, pk};
  const uint8_t* sigs[2] = {sig[0], sig[1]};
  const uint8_t* msgs[2] = {NULL, NULL}; /* TEST 1 signs the empty message */
  size_t pk_lens[2] = {32, 32}, sig_lens[2] = {64, 64}, msg_lens[2] = {0, 0};
  uint32_t state[16] = {894848333, 1437655012, 1200606629, 1690012884, 71131202,  1749206695, 1717947831, 120589055,
                        19776022,  42382981,   1831865506, 724844064,  171220207, 1299207443, 227047920,  1783754913};
  zkgpu_status s;

  printf("zkgpu %s\n", zkgpu_version());
  if (argc > 1 && strcmp(zkgpu_version(), argv[1]) != 0) return 1;

  from_hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", pk, 32);
  from_hex(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f"
      "0595bbe24655141438e7a100b",
      sig[0], 64);
  memcpy(sig[1], sig[0], 64);
  sig[1][0] ^= 1;
  s = zkgpu_ed25519_verify_batch(pks, pk_lens, sigs, sig_lens, msgs, msg_lens, 2, ZKGPU_ED25519_OPENSSL,
                                 ZKGPU_BACKEND_AUTO, verdicts);
  if (s != ZKGPU_OK) {
    fprintf(stderr, "ed25519: %s: %s\n", zkgpu_status_name(s), zkgpu_last_error());
    return 1;
  }
  printf("ed25519 verdicts: %d %d\n", verdicts[0], verdicts[1]);

  s = zkgpu_poseidon2_permute(state, 1, 16, "babybear", "plonky3", ZKGPU_BACKEND_AUTO);
  if (s != ZKGPU_OK) {
    fprintf(stderr, "poseidon2: %s: %s\n", zkgpu_status_name(s), zkgpu_last_error());
    return 1;
  }
  printf("poseidon2 state[0] = %u\n", (unsigned)state[0]);
  return verdicts[0] == 1 && verdicts[1] == 0 && state[0] == 516096821u && state[15] == 1344246938u ? 0 : 1;
}
