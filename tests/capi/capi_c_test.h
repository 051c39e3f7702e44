/* Shared by the C99 test program's files (capi_c_test.c is its main). */
#ifndef ZKGPU_CAPI_C_TEST_H
#define ZKGPU_CAPI_C_TEST_H
#include <stddef.h>
#include <stdint.h>

#include "zkgpu.h"

extern int failures;
/* Counts a failure and prints `what` unless ok. */
void check(int ok, const char* what);
/* 1 when s is ZKGPU_OK (and the last error is then empty); otherwise prints the message and counts a failure. */
int ok_call(zkgpu_status s, const char* what);
void hex_to_bytes(const char* hex, uint8_t* out);
/* The Montgomery word x * 2^32 mod p of a canonical value. */
uint32_t to_monty(uint32_t x);
/* A deterministic stream of canonical BabyBear values. */
uint32_t next_word(void);

void test_ntt(void);
void test_merkle(void);
void test_whir(void);
void test_msm(const uint8_t* points_c, const uint8_t* points_u, const uint8_t* scalars, size_t n,
              const uint8_t* expected_c, const uint8_t* expected_u);
void test_pq(void);

#endif
