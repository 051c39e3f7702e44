/* The C99 test program's MSM, ML-KEM and ML-DSA checks (capi_c_test.c is its main). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_c_test.h"

void test_msm(const uint8_t* points_c, const uint8_t* points_u, const uint8_t* scalars, size_t n,
              const uint8_t* expected_c, const uint8_t* expected_u) {
  uint8_t result[ZKGPU_G1_UNCOMPRESSED_BYTES], identity[ZKGPU_G1_COMPRESSED_BYTES];
  zkgpu_msm_bases* bases = NULL;
  size_t size = 0;
  uint8_t* te;
  if (ok_call(zkgpu_msm(points_c, scalars, n, ZKGPU_G1_COMPRESSED, ZKGPU_BACKEND_AUTO, result), "msm compressed"))
    check(memcmp(result, expected_c, ZKGPU_G1_COMPRESSED_BYTES) == 0, "MSM known answer (compressed)");
  if (ok_call(zkgpu_msm(points_u, scalars, n, ZKGPU_G1_UNCOMPRESSED, ZKGPU_BACKEND_CPU, result), "msm uncompressed"))
    check(memcmp(result, expected_u, ZKGPU_G1_UNCOMPRESSED_BYTES) == 0, "MSM known answer (uncompressed)");
  /* The empty sum is the identity: arkworks' infinity flag (bit 6 of the last byte). */
  if (ok_call(zkgpu_msm(NULL, NULL, 0, ZKGPU_G1_COMPRESSED, ZKGPU_BACKEND_CPU, identity), "msm of nothing"))
    check(identity[ZKGPU_G1_COMPRESSED_BYTES - 1] == 0x40, "the empty MSM is the identity");

  if (!ok_call(zkgpu_msm_bases_create(points_c, n, ZKGPU_G1_COMPRESSED, &bases), "msm_bases_create")) return;
  ok_call(zkgpu_msm_bases_size(bases, &size), "msm_bases_size");
  check(size == n, "the bases' size");
  memset(result, 0, sizeof result);
  if (ok_call(zkgpu_msm_with_bases(bases, scalars, n, ZKGPU_G1_UNCOMPRESSED, ZKGPU_BACKEND_CPU, result), "with bases"))
    check(memcmp(result, expected_u, ZKGPU_G1_UNCOMPRESSED_BYTES) == 0, "MSM over prepared bases, known answer");
  check(zkgpu_msm_with_bases(bases, scalars, n - 1, ZKGPU_G1_COMPRESSED, ZKGPU_BACKEND_CPU, result) ==
            ZKGPU_INVALID_ARGUMENT,
        "fewer scalars than bases is an error");
  te = (uint8_t*)malloc(n * ZKGPU_MSM_PRECOMPUTED_BYTES);
  ok_call(zkgpu_msm_bases_export(bases, te, n * ZKGPU_MSM_PRECOMPUTED_BYTES), "msm_bases_export");
  free(te);
  zkgpu_msm_bases_free(bases);
}

static void test_mlkem(zkgpu_mlkem_set set) {
  enum { N = 3 };
  zkgpu_mlkem_sizes sz;
  uint8_t seeds[N * 64], m[N * 32], key[N * 32], key2[N * 32], status[N], *ek, *dk, *ct;
  size_t i;
  if (!ok_call(zkgpu_mlkem_sizes_of(set, &sz), "mlkem_sizes_of")) return;
  check(sz.seed == 64 && sz.message == 32 && sz.shared_key == 32, "ML-KEM's fixed sizes");
  for (i = 0; i < sizeof seeds; ++i) seeds[i] = (uint8_t)(i * 7 + set);
  for (i = 0; i < sizeof m; ++i) m[i] = (uint8_t)(i * 13);
  ek = (uint8_t*)malloc(N * sz.encapsulation_key);
  dk = (uint8_t*)malloc(N * sz.decapsulation_key);
  ct = (uint8_t*)malloc(N * sz.ciphertext);
  ok_call(zkgpu_mlkem_keygen_batch(set, seeds, N, ZKGPU_BACKEND_AUTO, ek, dk), "mlkem_keygen_batch");
  ok_call(zkgpu_mlkem_encaps_batch(set, ek, m, N, ZKGPU_BACKEND_CPU, ct, key, status), "mlkem_encaps_batch");
  check(status[0] == ZKGPU_PQ_OK && status[1] == ZKGPU_PQ_OK && status[2] == ZKGPU_PQ_OK, "encaps statuses");
  ok_call(zkgpu_mlkem_decaps_batch(set, dk, ct, N, ZKGPU_BACKEND_CPU, key2, status), "mlkem_decaps_batch");
  check(status[0] == ZKGPU_PQ_OK && memcmp(key, key2, sizeof key) == 0, "decaps recovers every shared key");
  ok_call(zkgpu_mlkem_encaps_random_batch(set, ek, N, ZKGPU_BACKEND_CPU, ct, key, status), "encaps_random");
  ok_call(zkgpu_mlkem_decaps_batch(set, dk, ct, N, ZKGPU_BACKEND_CPU, key2, status), "mlkem_decaps_batch");
  check(memcmp(key, key2, sizeof key) == 0, "random encaps round trip");
  /* Item 1's dk with a changed H(ek) is an invalid item; items 0 and 2 are unaffected. */
  dk[sz.decapsulation_key + sz.decapsulation_key - 64] ^= 1;
  ok_call(zkgpu_mlkem_decaps_batch(set, dk, ct, N, ZKGPU_BACKEND_CPU, key2, status), "mlkem_decaps_batch");
  check(status[0] == ZKGPU_PQ_OK && status[1] == ZKGPU_PQ_INVALID_INPUT && status[2] == ZKGPU_PQ_OK,
        "a dk with a wrong H(ek) is an invalid item, alone");
  check(memcmp(key, key2, 32) == 0 && memcmp(key + 64, key2 + 64, 32) == 0, "the other items' keys are unchanged");
  free(ek);
  free(dk);
  free(ct);
}

static void test_mldsa(zkgpu_mldsa_set set) {
  enum { N = 3 };
  zkgpu_mldsa_sizes sz;
  uint8_t seeds[N * 32], rnd[32], status[N], verdicts[N], *pk, *sk, *sig;
  static const uint8_t msg[3][5] = {"abcd", "efgh", "ijkl"}, ctx[3] = {'c', 't', 'x'};
  const uint8_t *sks[N], *pks[N], *sigs[N], *msgs[N], *ctxs[N], *rnds[N];
  size_t sk_lens[N], pk_lens[N], sig_lens[N], msg_lens[N], ctx_lens[N], rnd_lens[N], i;
  if (!ok_call(zkgpu_mldsa_sizes_of(set, &sz), "mldsa_sizes_of")) return;
  check(sz.seed == 32 && sz.rnd == 32 && sz.mu == 64 && sz.max_context == 255, "ML-DSA's fixed sizes");
  for (i = 0; i < sizeof seeds; ++i) seeds[i] = (uint8_t)(i * 5 + set);
  memset(rnd, 0x5a, sizeof rnd);
  pk = (uint8_t*)malloc(N * sz.public_key);
  sk = (uint8_t*)malloc(N * sz.secret_key);
  sig = (uint8_t*)malloc(N * sz.signature);
  ok_call(zkgpu_mldsa_keygen_batch(set, seeds, N, ZKGPU_BACKEND_AUTO, pk, sk), "mldsa_keygen_batch");
  for (i = 0; i < N; ++i) {
    sks[i] = sk + i * sz.secret_key;
    pks[i] = pk + i * sz.public_key;
    sigs[i] = sig + i * sz.signature;
    sk_lens[i] = sz.secret_key;
    pk_lens[i] = sz.public_key;
    sig_lens[i] = sz.signature;
    msgs[i] = msg[i];
    msg_lens[i] = 4;
    ctxs[i] = ctx;
    ctx_lens[i] = i; /* "", "c", "ct" */
    rnds[i] = i == 1 ? NULL : rnd;
    rnd_lens[i] = i == 1 ? 0 : 32; /* item 1 deterministic, the others hedged */
  }
  ok_call(zkgpu_mldsa_sign_batch(set, sks, sk_lens, msgs, msg_lens, ctxs, ctx_lens, rnds, rnd_lens, N, 0,
                                 ZKGPU_BACKEND_CPU, sig, status),
          "mldsa_sign_batch");
  check(status[0] == ZKGPU_PQ_OK && status[1] == ZKGPU_PQ_OK && status[2] == ZKGPU_PQ_OK, "sign statuses");
  ok_call(zkgpu_mldsa_verify_batch(set, pks, pk_lens, msgs, msg_lens, ctxs, ctx_lens, sigs, sig_lens, N, 0,
                                   ZKGPU_BACKEND_AUTO, verdicts),
          "mldsa_verify_batch");
  check(verdicts[0] == 1 && verdicts[1] == 1 && verdicts[2] == 1, "every signature verifies");
  /* Item 0 under another context, item 2 with a short signature: invalid, item 1 still valid. */
  ctx_lens[0] = 3;
  sig_lens[2] = sz.signature - 1;
  ok_call(zkgpu_mldsa_verify_batch(set, pks, pk_lens, msgs, msg_lens, ctxs, ctx_lens, sigs, sig_lens, N, 0,
                                   ZKGPU_BACKEND_CPU, verdicts),
          "mldsa_verify_batch");
  check(verdicts[0] == 0 && verdicts[1] == 1 && verdicts[2] == 0, "wrong context and short signature are invalid");
  /* Contexts omitted altogether: every context is empty, so only item 0 (signed under "") verifies. */
  sig_lens[2] = sz.signature;
  ok_call(zkgpu_mldsa_verify_batch(set, pks, pk_lens, msgs, msg_lens, NULL, NULL, sigs, sig_lens, N, 0,
                                   ZKGPU_BACKEND_CPU, verdicts),
          "mldsa_verify_batch");
  check(verdicts[0] == 1 && verdicts[1] == 0 && verdicts[2] == 0, "NULL contexts are empty contexts");
  free(pk);
  free(sk);
  free(sig);
}

/* The PQ device-pointer variants given host memory: ZKGPU_UNAVAILABLE without a GPU; with one, host
 * memory is refused as ZKGPU_INVALID_ARGUMENT before anything is enqueued. */
static void test_pq_device(void) {
  const zkgpu_status want = zkgpu_cuda_usable() ? ZKGPU_INVALID_ARGUMENT : ZKGPU_UNAVAILABLE;
  static uint8_t in[16384], out[16384], status[2], verdicts[2];
  static uint64_t offsets[3] = {0, 4, 8};
  check(zkgpu_mlkem_keygen_batch_device(ZKGPU_MLKEM_512, in, 2, out, out + 4096, NULL) == want,
        "zkgpu_mlkem_keygen_batch_device on host memory");
  check(zkgpu_mlkem_encaps_batch_device(ZKGPU_MLKEM_512, in, in + 4096, 2, out, out + 4096, status, NULL) == want,
        "zkgpu_mlkem_encaps_batch_device on host memory");
  check(zkgpu_mlkem_encaps_random_batch_device(ZKGPU_MLKEM_512, in, 2, out, out + 4096, status, NULL) == want,
        "zkgpu_mlkem_encaps_random_batch_device on host memory");
  check(zkgpu_mlkem_decaps_batch_device(ZKGPU_MLKEM_512, in, in + 4096, 2, out, status, NULL) == want,
        "zkgpu_mlkem_decaps_batch_device on host memory");
  check(zkgpu_mldsa_keygen_batch_device(ZKGPU_MLDSA_44, in, 2, out, out + 4096, NULL) == want,
        "zkgpu_mldsa_keygen_batch_device on host memory");
  check(zkgpu_mldsa_sign_batch_device(ZKGPU_MLDSA_44, in, in, offsets, 8, NULL, NULL, 0, NULL, 2, 0, out, status,
                                      NULL) == want,
        "zkgpu_mldsa_sign_batch_device on host memory");
  check(zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_44, in, in + 4096, in, offsets, 8, NULL, NULL, 0, 2, 0, verdicts,
                                        NULL) == want,
        "zkgpu_mldsa_verify_batch_device on host memory");
  check(zkgpu_last_error()[0] != '\0', "a PQ device call's failure has a message");
  check(zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_44, in, in + 4096, in, offsets, 8, NULL, NULL, 0, 2, 3, verdicts,
                                        NULL) == ZKGPU_INVALID_ARGUMENT,
        "external_mu 3 is refused on any machine");
}

void test_pq(void) {
  test_mlkem(ZKGPU_MLKEM_512);
  test_mlkem(ZKGPU_MLKEM_768);
  test_mlkem(ZKGPU_MLKEM_1024);
  test_mldsa(ZKGPU_MLDSA_44);
  test_mldsa(ZKGPU_MLDSA_65);
  test_mldsa(ZKGPU_MLDSA_87);
  test_pq_device();
}
