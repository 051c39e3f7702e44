/* The C99 test program's NTT, Merkle and WHIR checks (capi_c_test.c is its main). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_c_test.h"

#define LOG_N 8
#define COLS 3
#define ROWS (1u << LOG_N)
#define LOG_BLOWUP 2

void test_ntt(void) {
  static uint32_t m[ROWS * COLS], a[ROWS * COLS], mm[ROWS * COLS], padded[(ROWS << LOG_BLOWUP) * COLS],
      lde[(ROWS << LOG_BLOWUP) * COLS], lde2[(ROWS << LOG_BLOWUP) * COLS];
  uint64_t sum[COLS] = {0, 0, 0};
  size_t i;
  int same = 1;
  for (i = 0; i < ROWS * COLS; ++i) {
    m[i] = next_word();
    sum[i % COLS] += m[i];
  }
  memcpy(a, m, sizeof m);
  if (!ok_call(zkgpu_ntt(a, LOG_N, COLS, ZKGPU_NTT_FORWARD, 1, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU), "ntt"))
    return;
  /* Row 0 of the evaluations is each polynomial at x = 1: the sum of its coefficients. */
  for (i = 0; i < COLS; ++i) same &= a[i] == (uint32_t)(sum[i] % ZKGPU_BABYBEAR_P);
  check(same, "forward NTT: evaluation 0 is the sum of the coefficients");
  /* The same transform on Montgomery words gives the Montgomery words of the result. */
  for (i = 0; i < ROWS * COLS; ++i) mm[i] = to_monty(m[i]);
  if (ok_call(zkgpu_ntt(mm, LOG_N, COLS, ZKGPU_NTT_FORWARD, to_monty(1), ZKGPU_BABYBEAR_MONTGOMERY, ZKGPU_BACKEND_CPU),
              "ntt Montgomery")) {
    for (i = 0, same = 1; i < ROWS * COLS; ++i) same &= mm[i] == to_monty(a[i]);
    check(same, "Montgomery NTT = Montgomery form of the canonical NTT");
  }
  if (ok_call(zkgpu_ntt(a, LOG_N, COLS, ZKGPU_NTT_INVERSE, 1, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_AUTO), "inverse"))
    check(memcmp(a, m, sizeof m) == 0, "NTT forward then inverse is the identity");
  /* Coset shift 31 both ways. */
  ok_call(zkgpu_ntt(a, LOG_N, COLS, ZKGPU_NTT_FORWARD, 31, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU), "coset ntt");
  check(memcmp(a, m, sizeof m) != 0, "the coset NTT changed the matrix");
  ok_call(zkgpu_ntt(a, LOG_N, COLS, ZKGPU_NTT_INVERSE, 31, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU), "coset inv");
  check(memcmp(a, m, sizeof m) == 0, "coset NTT forward then inverse is the identity");

  /* lde_from_coeffs = the forward coset NTT of the zero-padded coefficients; coset_lde of the
   * plain evaluations gives the same. */
  memset(padded, 0, sizeof padded);
  memcpy(padded, m, sizeof m);
  ok_call(
      zkgpu_ntt(padded, LOG_N + LOG_BLOWUP, COLS, ZKGPU_NTT_FORWARD, 31, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU),
      "padded ntt");
  if (ok_call(zkgpu_lde_from_coeffs(m, LOG_N, COLS, LOG_BLOWUP, 31, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU, lde),
              "lde_from_coeffs"))
    check(memcmp(lde, padded, sizeof lde) == 0, "lde_from_coeffs = NTT of the zero-padded coefficients");
  memcpy(a, m, sizeof m);
  ok_call(zkgpu_ntt(a, LOG_N, COLS, ZKGPU_NTT_FORWARD, 1, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU), "ntt");
  if (ok_call(zkgpu_coset_lde(a, LOG_N, COLS, LOG_BLOWUP, 31, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU, lde2),
              "coset_lde"))
    check(memcmp(lde2, padded, sizeof lde2) == 0, "coset_lde of the evaluations = lde_from_coeffs");
  check(zkgpu_coset_lde(lde, LOG_N, COLS, LOG_BLOWUP, 31, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CPU, lde + 1) ==
            ZKGPU_INVALID_ARGUMENT,
        "an output overlapping the input is ZKGPU_INVALID_ARGUMENT");
}

/* The 8 x 2 matrix of rows (1, 2), (3, 4), ... under the WHIR constant set
 * (tests/vectors/poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json,
 * merkle_base_matrix_8x2). */
void test_merkle(void) {
  static const uint32_t root_kat[8] = {203184437, 1063830191, 1282669980, 2002033753,
                                       735999762, 356149103,  340705428,  1488761363};
  static const uint32_t leaf0_kat[8] = {1242649157, 705024975, 431400780, 1143351266,
                                        979048167,  33285121,  719665759, 1851633646};
  static const uint32_t siblings_kat[24] = {211863715,  477100505,  1559554730, 1522806339, 1639824028, 197241686,
                                            543248889,  888360704,  306543822,  1563458803, 363112604,  1578737777,
                                            1460913615, 1064921350, 7202039,    219303963,  1060460958, 1410598099,
                                            1093246203, 1153944534, 1156195432, 1825375023, 1856888776, 1926958688};
  uint32_t matrix[16], mont[16], root[8], nodes[15 * 8], row[2], siblings[24];
  zkgpu_merkle_tree *tree = NULL, *mtree = NULL;
  size_t rows = 0, cols = 0, depth = 0, i;
  uint8_t accepted = 9;
  int same = 1;
  for (i = 0; i < 16; ++i) {
    matrix[i] = (uint32_t)i + 1;
    mont[i] = to_monty(matrix[i]);
  }
  if (!ok_call(zkgpu_merkle_build(matrix, 8, 2, "whir", ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_AUTO, &tree), "build"))
    return;
  ok_call(zkgpu_merkle_shape(tree, &rows, &cols, &depth), "merkle_shape");
  check(rows == 8 && cols == 2 && depth == 3, "the tree's shape");
  ok_call(zkgpu_merkle_root(tree, root), "merkle_root");
  check(memcmp(root, root_kat, sizeof root) == 0, "Merkle root known answer");
  ok_call(zkgpu_merkle_nodes(tree, nodes, 15 * 8), "merkle_nodes");
  check(memcmp(nodes, leaf0_kat, sizeof leaf0_kat) == 0 && memcmp(nodes + 14 * 8, root_kat, sizeof root_kat) == 0,
        "nodes: leaf 0 first, the root last");
  ok_call(zkgpu_merkle_open(tree, 5, row, 2, siblings, 24), "merkle_open");
  check(row[0] == 11 && row[1] == 12 && memcmp(siblings, siblings_kat, sizeof siblings) == 0,
        "the opening of row 5 is the known one");
  ok_call(zkgpu_merkle_verify(root, 8, 2, 5, row, siblings, 3, "whir", ZKGPU_BABYBEAR_CANONICAL, &accepted), "verify");
  check(accepted == 1, "the opening verifies");
  row[1] ^= 1;
  ok_call(zkgpu_merkle_verify(root, 8, 2, 5, row, siblings, 3, "whir", ZKGPU_BABYBEAR_CANONICAL, &accepted), "verify");
  check(accepted == 0, "a changed row is rejected");
  ok_call(zkgpu_merkle_verify(root, 8, 2, 5, row, siblings, 3, "plonky3", ZKGPU_BABYBEAR_CANONICAL, &accepted), "v");
  check(accepted == 0, "another constant set rejects");
  check(zkgpu_merkle_open(tree, 8, row, 2, siblings, 24) == ZKGPU_INVALID_ARGUMENT, "opening row 8 of 8 is an error");
  zkgpu_merkle_free(tree);

  if (ok_call(zkgpu_merkle_build(mont, 8, 2, "whir", ZKGPU_BABYBEAR_MONTGOMERY, ZKGPU_BACKEND_CPU, &mtree), "build")) {
    ok_call(zkgpu_merkle_root(mtree, root), "merkle_root");
    for (i = 0; i < 8; ++i) same &= root[i] == to_monty(root_kat[i]);
    check(same, "a Montgomery-word tree returns the Montgomery words of the root");
  }
  zkgpu_merkle_free(mtree);
  zkgpu_merkle_free(NULL);
}

#define WHIR_N 10

/* A claim at a Boolean point is a table entry: f(bits of k, x_0 the MSB) = evals[k]. */
static void boolean_claim(size_t k, const uint32_t* evals, uint32_t* point, uint32_t* value) {
  size_t i;
  memset(point, 0, WHIR_N * 4 * sizeof *point);
  memset(value, 0, 4 * sizeof *value);
  for (i = 0; i < WHIR_N; ++i) point[4 * i] = (uint32_t)((k >> (WHIR_N - 1 - i)) & 1);
  value[0] = evals[k];
}

void test_whir(void) {
  static uint32_t evals[1u << WHIR_N];
  uint32_t points[2 * WHIR_N * 4], values[8], root[8];
  zkgpu_whir_params params;
  zkgpu_whir_config cfg;
  zkgpu_whir_proof* proof = NULL;
  uint64_t max_bytes = 0;
  size_t bytes = 0, i;
  uint8_t* file;
  uint8_t accepted = 9;
  char reason[256];
  for (i = 0; i < (1u << WHIR_N); ++i) evals[i] = next_word();
  boolean_claim(3, evals, points, values);
  boolean_claim(700, evals, points + WHIR_N * 4, values + 4);
  ok_call(zkgpu_whir_params_init(&params, WHIR_N), "whir_params_init");
  if (!ok_call(zkgpu_whir_derive(&params, &cfg), "whir_derive")) return;
  check(cfg.num_variables == WHIR_N && cfg.num_evaluations == (1u << WHIR_N), "the derived sizes");
  ok_call(zkgpu_whir_max_proof_size(&params, 2, &max_bytes), "whir_max_proof_size");
  if (!ok_call(zkgpu_whir_prove(&params, evals, 1u << WHIR_N, points, values, 2, ZKGPU_BABYBEAR_CANONICAL,
                                ZKGPU_BACKEND_CPU, &proof),
               "whir_prove"))
    return;
  ok_call(zkgpu_whir_proof_size(proof, &bytes), "whir_proof_size");
  check(bytes > 52 && bytes <= max_bytes, "the proof's size is within the bound");
  file = (uint8_t*)malloc(bytes);
  ok_call(zkgpu_whir_proof_write(proof, file, bytes), "whir_proof_write");
  check(memcmp(file, "ZKGPWHIR", 8) == 0, "the proof file starts with its magic");
  ok_call(zkgpu_whir_proof_root(proof, ZKGPU_BABYBEAR_CANONICAL, root), "whir_proof_root");
  ok_call(zkgpu_whir_verify(&params, points, values, 2, root, ZKGPU_BABYBEAR_CANONICAL, file, bytes, &accepted, reason,
                            sizeof reason),
          "whir_verify");
  check(accepted == 1 && reason[0] == '\0', "the proof verifies");
  values[4] ^= 1;
  ok_call(zkgpu_whir_verify(&params, points, values, 2, root, ZKGPU_BABYBEAR_CANONICAL, file, bytes, &accepted, reason,
                            sizeof reason),
          "whir_verify");
  check(accepted == 0 && reason[0] != '\0', "another claimed value is rejected, with a reason");
  values[4] ^= 1;
  file[bytes / 2] ^= 0x40;
  ok_call(
      zkgpu_whir_verify(&params, points, values, 2, NULL, ZKGPU_BABYBEAR_CANONICAL, file, bytes, &accepted, NULL, 0),
      "whir_verify");
  check(accepted == 0, "a corrupted proof is rejected");
  file[bytes / 2] ^= 0x40;
  ok_call(zkgpu_whir_verify(&params, points, values, 2, root, ZKGPU_BABYBEAR_CANONICAL, file, bytes - 4, &accepted,
                            reason, sizeof reason),
          "whir_verify");
  check(accepted == 0 && strstr(reason, "malformed") != NULL, "a truncated proof is rejected as malformed");
  free(file);
  zkgpu_whir_proof_free(proof);
}
