/* The C ABI from C99 (compiled with -std=c99 -pedantic -Werror; ctest capi_c_test): every function
 * of include/zkgpu.h once, with known answers from tests/vectors and round trips, on the CPU
 * backend (and AUTO, which is the CPU here unless a GPU answers). Exit 0 when every check holds.
 * argv[1], when given, is the version the library must report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zkgpu.h"
#include "capi_c_test.h"
#include "msm_kat.h"

int failures = 0;

void check(int ok, const char* what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

int ok_call(zkgpu_status s, const char* what) {
  if (s != ZKGPU_OK) {
    printf("FAILED: %s returned %s: %s\n", what, zkgpu_status_name(s), zkgpu_last_error());
    ++failures;
    return 0;
  }
  check(zkgpu_last_error()[0] == '\0', "zkgpu_last_error() is empty after a success");
  return 1;
}

void hex_to_bytes(const char* hex, uint8_t* out) {
  size_t i;
  for (i = 0; hex[2 * i] && hex[2 * i + 1]; ++i) {
    unsigned v = 0;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

uint32_t to_monty(uint32_t x) { return (uint32_t)(((uint64_t)x << 32) % ZKGPU_BABYBEAR_P); }

/* Deterministic inputs: a 64-bit LCG, reduced below p. */
static uint64_t lcg_state = 0x5eed2026u;
uint32_t next_word(void) {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)((lcg_state >> 33) % ZKGPU_BABYBEAR_P);
}

static void test_runtime(const char* want_version) {
  const char* v = zkgpu_version();
  check(v != NULL && strlen(v) >= 5, "zkgpu_version() is MAJOR.MINOR.PATCH");
  if (want_version) check(strcmp(v, want_version) == 0, "zkgpu_version() is the package's version");
  check(strcmp(zkgpu_status_name(ZKGPU_OK), "ZKGPU_OK") == 0, "zkgpu_status_name(ZKGPU_OK)");
  check(strcmp(zkgpu_status_name(ZKGPU_INTERNAL), "ZKGPU_INTERNAL") == 0, "zkgpu_status_name(ZKGPU_INTERNAL)");
  check(zkgpu_cuda_usable() == 0 || zkgpu_cuda_usable() == 1, "zkgpu_cuda_usable() is 0 or 1");
  ok_call(zkgpu_release_gpu_caches(), "zkgpu_release_gpu_caches");
  /* A failure sets the message, the next success clears it. */
  check(zkgpu_poseidon2_permute(NULL, 1, 16, "babybear", "plonky3", ZKGPU_BACKEND_CPU) == ZKGPU_INVALID_ARGUMENT,
        "NULL states with n = 1 is ZKGPU_INVALID_ARGUMENT");
  check(strstr(zkgpu_last_error(), "states") != NULL, "the message names the NULL argument");
  ok_call(zkgpu_poseidon2_permute(NULL, 0, 16, "babybear", "plonky3", ZKGPU_BACKEND_CPU), "an empty batch");
}

/* RFC 8032 section 7.1 TEST 1, 2, 3 (tests/vectors/ed25519/rfc8032_7.1_ed25519.json). */
static void test_ed25519(void) {
  static const char* pk_hex[3] = {"d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
                                  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
                                  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"};
  static const char* sig_hex[3] = {
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24"
      "655141438e7a100b",
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aee"
      "b00d291612bb0c00",
      "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28d"
      "c027beceea1ec40a"};
  static const uint8_t msg2[1] = {0x72}, msg3[2] = {0xaf, 0x82};
  uint8_t pk[5][32], sig[5][64], verdicts[5];
  const uint8_t* pks[5];
  const uint8_t* sigs[5];
  const uint8_t* msgs[5] = {NULL, msg2, msg3, msg3, msg2};
  size_t pk_lens[5] = {32, 32, 32, 32, 31}, sig_lens[5] = {64, 64, 64, 64, 64}, msg_lens[5] = {0, 1, 2, 2, 1};
  int i, mode;
  for (i = 0; i < 3; ++i) {
    hex_to_bytes(pk_hex[i], pk[i]);
    hex_to_bytes(sig_hex[i], sig[i]);
  }
  /* Item 3: TEST 3 with one signature bit flipped; item 4: TEST 2 with a 31-byte key. */
  memcpy(pk[3], pk[2], 32);
  memcpy(sig[3], sig[2], 64);
  sig[3][10] ^= 1;
  memcpy(pk[4], pk[1], 32);
  memcpy(sig[4], sig[1], 64);
  for (i = 0; i < 5; ++i) {
    pks[i] = pk[i];
    sigs[i] = sig[i];
  }
  for (mode = ZKGPU_ED25519_OPENSSL; mode <= ZKGPU_ED25519_ZIP215; ++mode) {
    memset(verdicts, 7, sizeof verdicts);
    if (!ok_call(zkgpu_ed25519_verify_batch(pks, pk_lens, sigs, sig_lens, msgs, msg_lens, 5, (zkgpu_ed25519_mode)mode,
                                            ZKGPU_BACKEND_AUTO, verdicts),
                 "zkgpu_ed25519_verify_batch"))
      continue;
    check(verdicts[0] == 1 && verdicts[1] == 1 && verdicts[2] == 1, "RFC 8032 TEST 1-3 verify");
    check(verdicts[3] == 0, "a flipped signature bit is invalid");
    check(verdicts[4] == 0, "a 31-byte key is an invalid item");
  }
  /* The same five items as structs. */
  {
    zkgpu_ed25519_item items[5];
    for (i = 0; i < 5; ++i) {
      items[i].public_key = pks[i];
      items[i].public_key_len = pk_lens[i];
      items[i].signature = sigs[i];
      items[i].signature_len = sig_lens[i];
      items[i].message = msgs[i];
      items[i].message_len = msg_lens[i];
    }
    memset(verdicts, 7, sizeof verdicts);
    if (ok_call(zkgpu_ed25519_verify_batch_items(items, 5, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_AUTO, verdicts),
                "zkgpu_ed25519_verify_batch_items"))
      check(verdicts[0] == 1 && verdicts[1] == 1 && verdicts[2] == 1 && verdicts[3] == 0 && verdicts[4] == 0,
            "the item structs give the pointer arrays' verdicts");
  }
  /* Items 0-3 packed: keys and signatures back to back, messages "" | 72 | af82 | af82. */
  {
    uint8_t keys[4 * 32], sigs4[4 * 64], packed_msgs[5] = {0x72, 0xaf, 0x82, 0xaf, 0x82};
    const uint64_t offsets[5] = {0, 0, 1, 3, 5};
    zkgpu_status want = zkgpu_cuda_usable() ? ZKGPU_INVALID_ARGUMENT : ZKGPU_UNAVAILABLE;
    for (i = 0; i < 4; ++i) {
      memcpy(keys + 32 * i, pk[i], 32);
      memcpy(sigs4 + 64 * i, sig[i], 64);
    }
    memset(verdicts, 7, sizeof verdicts);
    if (ok_call(zkgpu_ed25519_verify_batch_packed(keys, sigs4, packed_msgs, offsets, 4, ZKGPU_ED25519_OPENSSL,
                                                  ZKGPU_BACKEND_AUTO, verdicts),
                "zkgpu_ed25519_verify_batch_packed"))
      check(verdicts[0] == 1 && verdicts[1] == 1 && verdicts[2] == 1 && verdicts[3] == 0,
            "the packed batch gives the pointer arrays' verdicts");
    /* Host memory for the device variant: refused, and nothing dereferenced without a GPU. */
    check(zkgpu_ed25519_verify_batch_device(keys, sigs4, packed_msgs, 5, offsets, 4, ZKGPU_ED25519_OPENSSL, verdicts,
                                            NULL) == want,
          "zkgpu_ed25519_verify_batch_device on host memory");
  }
}

/* Plonky3 090b's width-16 and width-24 known answers (tests/vectors/poseidon2/
 * poseidon2_babybear_plonky3_kat.json) and the WHIR set's permutation of zero
 * (poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json). */
static void test_poseidon2(void) {
  uint32_t s16[16] = {894848333, 1437655012, 1200606629, 1690012884, 71131202,  1749206695, 1717947831, 120589055,
                      19776022,  42382981,   1831865506, 724844064,  171220207, 1299207443, 227047920,  1783754913};
  static const uint32_t e16[16] = {516096821,  90309867,   1101817252, 1660784290, 360715097,  1789519026,
                                   1788910906, 563338433,  319524748,  1741414159, 1650859320, 894311162,
                                   1121347488, 1692793758, 1052633829, 1344246938};
  uint32_t s24[24] = {886409618,  1327899896, 1902407911, 591953491,  648428576,  1844789031, 1198336108, 355597330,
                      1799586834, 59617783,   790334801,  1968791836, 559272107,  31054313,   1042221543, 474748436,
                      135686258,  263665994,  1962340735, 1741539604, 2026927696, 449439011,  1131357108, 50869465};
  static const uint32_t e24[24] = {882297297, 1264077610, 512812497,  782602970, 867738552,  1251075457,
                                   309180082, 340784773,  524041877,  351272188, 404451680,  15001466,
                                   322926653, 1773004150, 1718440818, 674682955, 1154713225, 1719133502,
                                   324232301, 1005243141, 443371079,  268735940, 770060019,  718377682};
  static const uint32_t whir_zero[16] = {1909051215, 700995543,  1240583658, 1237622422, 131291736, 158833016,
                                         332282139,  766196307,  417347253,  1608857170, 391034705, 706319827,
                                         1594995876, 1729236183, 1636285851, 991224072};
  uint32_t z[32], m16[16];
  int i;
  /* Plonky3's width-24 input holds 2026927696 >= p, which its test reduces mod p; the C ABI takes
   * canonical values only, so it refuses that word and is given the reduced one. */
  check(zkgpu_poseidon2_permute(s24, 1, 24, "babybear", "plonky3", ZKGPU_BACKEND_CPU) == ZKGPU_INVALID_ARGUMENT &&
            strstr(zkgpu_last_error(), "states[20]") != NULL,
        "a non-canonical value is refused, by index");
  s24[20] -= ZKGPU_BABYBEAR_P;
  for (i = 0; i < 16; ++i) m16[i] = to_monty(s16[i]);
  if (ok_call(zkgpu_poseidon2_permute(s16, 1, 16, "babybear", "plonky3", ZKGPU_BACKEND_AUTO), "permute w16"))
    check(memcmp(s16, e16, sizeof e16) == 0, "Plonky3 width-16 known answer");
  if (ok_call(zkgpu_poseidon2_permute(s24, 1, 24, "babybear", "plonky3", ZKGPU_BACKEND_CPU), "permute w24"))
    check(memcmp(s24, e24, sizeof e24) == 0, "Plonky3 width-24 known answer");
  memset(z, 0, sizeof z);
  if (ok_call(zkgpu_poseidon2_permute(z, 2, 16, "babybear", "whir", ZKGPU_BACKEND_CPU), "permute whir"))
    check(memcmp(z, whir_zero, sizeof whir_zero) == 0 && memcmp(z + 16, whir_zero, sizeof whir_zero) == 0,
          "WHIR set: the permutation of zero, twice in one batch");
  if (ok_call(
          zkgpu_poseidon2_permute_repr(m16, 1, 16, "babybear", "plonky3", ZKGPU_BABYBEAR_MONTGOMERY, ZKGPU_BACKEND_CPU),
          "permute Montgomery")) {
    int same = 1;
    for (i = 0; i < 16; ++i) same &= m16[i] == to_monty(e16[i]);
    check(same, "Montgomery words give the Montgomery form of the known answer");
  }
}

/* The device-pointer variants given host memory: ZKGPU_UNAVAILABLE without a GPU; with one, host
 * memory is refused as ZKGPU_INVALID_ARGUMENT before anything is enqueued. */
static void test_device(void) {
  const zkgpu_status want = zkgpu_cuda_usable() ? ZKGPU_INVALID_ARGUMENT : ZKGPU_UNAVAILABLE;
  static uint32_t in[1024 * 16], out[4096 * 16];
  static uint8_t scalars[32 * 4], points[ZKGPU_MSM_PRECOMPUTED_BYTES * 4], result[48];
  const uint32_t one = to_monty(1);
  check(zkgpu_ntt_device(in, 10, 16, ZKGPU_NTT_FORWARD, one, NULL) == want, "zkgpu_ntt_device on host memory");
  check(zkgpu_coset_lde_device(in, 10, 16, 2, one, out, NULL) == want, "zkgpu_coset_lde_device on host memory");
  check(zkgpu_lde_from_coeffs_device(in, 10, 16, 2, one, out, NULL) == want, "zkgpu_lde_from_coeffs_device");
  check(zkgpu_poseidon2_permute_device(in, 1024, 16, "babybear", "whir", NULL) == want,
        "zkgpu_poseidon2_permute_device on host memory");
  check(zkgpu_merkle_build_device(in, 1024, 16, "whir", out, NULL) == want, "zkgpu_merkle_build_device");
  check(zkgpu_msm_device(points, scalars, 4, 0, ZKGPU_G1_COMPRESSED, NULL, result) == want, "zkgpu_msm_device");
  check(zkgpu_last_error()[0] != '\0', "a device call's failure has a message");
  check(zkgpu_ntt_device(in, 10, 16, ZKGPU_NTT_FORWARD, 0, NULL) == ZKGPU_INVALID_ARGUMENT,
        "a zero shift is refused on any machine");
}

int main(int argc, char** argv) {
  test_runtime(argc > 1 ? argv[1] : NULL);
  test_ed25519();
  test_poseidon2();
  test_ntt();
  test_merkle();
  test_whir();
  test_msm(msm_kat_points_c, msm_kat_points_u, msm_kat_scalars, MSM_KAT_N, msm_kat_expected_c, msm_kat_expected_u);
  test_pq();
  test_device();
  if (failures == 0) printf("capi_c_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
