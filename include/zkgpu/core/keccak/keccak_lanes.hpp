// Keccak-f[1600] with the state spread over 25 workers, worker i = x + 5y holding lane s[i]: the
// form a CUDA warp uses when one sequential hash (a challenge c~, mu, rho'') would otherwise run on
// a single thread while 31 wait. A round is four exchange steps plus iota; in each step a worker
// reads values of other workers through `pull(src)` (on the device a warp shuffle, on the host an
// array of the previous step). The round is FIPS 202 section 3.3 (theta, rho, pi, chi, iota),
// the same as keccak_permute; tests/keccak/keccak_lanes_test.cpp runs these steps over an array on
// the CPU and checks them against keccak_f1600.
#pragma once
#include "zkgpu/core/keccak/keccak.hpp"

namespace zkgpu::keccak::lanes {

// rho offset r[x][y] of lane i = x + 5y (FIPS 202 Algorithm 2: walk (1, 0) -> (y, 2x + 3y) with
// offset (t + 1)(t + 2) / 2 mod 64 at step t). A loop rather than a table: device code cannot
// read host constexpr arrays, and this runs once per worker, outside the rounds.
ZKGPU_HD unsigned rho_offset(int i) {
  int x = 1, y = 0;
  for (int t = 0; t < 24; ++t) {
    if (x + 5 * y == i) return unsigned(((t + 1) * (t + 2) / 2) % 64);
    const int nx = y;
    y = (2 * x + 3 * y) % 5;
    x = nx;
  }
  return 0;  // lane (0, 0)
}

// The workers a worker reads in each step, fixed per worker (computed once, outside the rounds).
struct Sources {
  int column[4];    // theta: the other four lanes of column x
  int left, right;  // theta: lanes x-1 and x+1 of this row (their column parities)
  int pi;           // rho+pi: lane ((x + 3y) mod 5, x) moves here
  unsigned rot;     // ... rotated by its rho offset
  int chi1, chi2;   // chi: lanes x+1 and x+2 of this row
  bool first;       // worker 0 takes the round constant (iota)

  ZKGPU_HD explicit Sources(int i) {
    const int x = i % 5, y = i / 5;
    for (int d = 1; d < 5; ++d) column[d - 1] = x + 5 * ((y + d) % 5);
    left = (x + 4) % 5 + 5 * y;
    right = (x + 1) % 5 + 5 * y;
    pi = (x + 3 * y) % 5 + 5 * x;
    rot = rho_offset(pi);
    chi1 = right;
    chi2 = (x + 2) % 5 + 5 * y;
    first = i == 0;
  }
};

// Step 1: the parity C[x] of this worker's column (pull reads the other workers' lane a).
template <class Pull>
ZKGPU_HD uint64_t column_parity(uint64_t a, const Sources& src, Pull&& pull) {
  return a ^ pull(src.column[0]) ^ pull(src.column[1]) ^ pull(src.column[2]) ^ pull(src.column[3]);
}
// Step 2: a ^= C[x-1] ^ rot(C[x+1], 1) (pull reads the other workers' parity c).
template <class Pull>
ZKGPU_HD uint64_t theta(uint64_t a, const Sources& src, Pull&& pull) {
  const uint64_t l = pull(src.left), r = pull(src.right);
  return a ^ l ^ rotl64(r, 1);
}
// Step 3: rho and pi together (pull reads a after theta).
template <class Pull>
ZKGPU_HD uint64_t rho_pi(const Sources& src, Pull&& pull) {
  return rotl64(pull(src.pi), src.rot);
}
// Step 4: chi along the row, then iota on worker 0 (pull reads a after rho+pi).
template <class Pull>
ZKGPU_HD uint64_t chi_iota(uint64_t a, const Sources& src, int round, Pull&& pull) {
  const uint64_t b1 = pull(src.chi1), b2 = pull(src.chi2);
  a ^= ~b1 & b2;
  if (src.first) a ^= keccak_rc(round);
  return a;
}

}  // namespace zkgpu::keccak::lanes
