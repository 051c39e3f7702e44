// Text and byte encodings of BLS12-377 values, and the checks untrusted points go through.
#include <omp.h>

#include <algorithm>

#include "zkgpu/bls12_377.hpp"
#include "runtime/huge_pages.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::bls12_377 {

namespace {

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

// Big-endian hex into N little-endian limbs; leading zeros of any count are fine.
template <int N>
bool parse_hex_limbs(std::string_view hex, BigInt<N>& out, std::string& err) {
  if (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
  if (hex.empty()) {
    err = "empty number";
    return false;
  }
  size_t first = hex.find_first_not_of('0');
  std::string_view digits = first == std::string_view::npos ? std::string_view{} : hex.substr(first);
  for (char ch : hex) {
    if (hex_value(ch) < 0) {
      err = std::string("'") + ch + "' is not a hex digit";
      return false;
    }
  }
  if (digits.size() > static_cast<size_t>(16 * N)) {
    err = "value has more than " + std::to_string(64 * N) + " bits";
    return false;
  }
  out = BigInt<N>{};
  for (size_t i = 0; i < digits.size(); ++i) {
    size_t nib = digits.size() - 1 - i;  // nibble index from the least significant end
    out.l[nib / 16] |= static_cast<uint64_t>(hex_value(digits[i])) << (4 * (nib % 16));
  }
  return true;
}

template <int N>
std::string hex_of(const BigInt<N>& v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (int i = 64 * N / 4 - 1; i >= 0; --i) {
    unsigned nib = (v.l[i / 16] >> (4 * (i % 16))) & 0xf;
    if (s.empty() && nib == 0) continue;
    s.push_back(digits[nib]);
  }
  return s.empty() ? "0" : s;
}

// y is "negative" in arkworks' sense when y > -y as canonical integers (SWFlags::from_y_coordinate).
bool y_is_negative(const Fp& y) {
  FpRepr a = y.canonical(), b = (-y).canonical();
  return !limbs::geq<6>(b.l, a.l);
}

void write_fp_le(const Fp& v, uint8_t* out) {
  FpRepr c = v.canonical();
  for (int i = 0; i < 48; ++i) out[i] = static_cast<uint8_t>(c.l[i / 8] >> (8 * (i % 8)));
}

// 48 little-endian bytes; flags (the top two bits of the last byte) are returned separately.
bool read_fp_le(const uint8_t* in, Fp& out, uint8_t& flags, std::string& err) {
  FpRepr c{};
  for (int i = 0; i < 48; ++i) {
    uint8_t byte = in[i];
    if (i == 47) {
      flags = byte & 0xc0;
      byte &= 0x3f;
    }
    c.l[i / 8] |= static_cast<uint64_t>(byte) << (8 * (i % 8));
  }
  if (!Fp::is_canonical(c)) {
    err = "coordinate is not below p";
    return false;
  }
  out = Fp::from_canonical(c);
  return true;
}

constexpr uint8_t FLAG_Y_NEGATIVE = 0x80, FLAG_INFINITY = 0x40;

FpRepr fp_modulus() {
  FpRepr m{};
  m = FpConfig::modulus();
  return m;
}

}  // namespace

bool parse_fp_hex(std::string_view hex, Fp& out, std::string& err) {
  BigInt<6> v{};
  if (!parse_hex_limbs<6>(hex, v, err)) return false;
  if (!Fp::is_canonical(v)) {
    err = "coordinate is not below p";
    return false;
  }
  out = Fp::from_canonical(v);
  return true;
}

bool parse_scalar_hex(std::string_view hex, Scalar& out, std::string& err) {
  BigInt<4> v{};
  if (!parse_hex_limbs<4>(hex, v, err)) {
    if (err.rfind("value has more", 0) == 0) err = "scalar has more than 256 bits";
    return false;
  }
  out = reduce_scalar(v);
  return true;
}

std::string to_hex(const FpRepr& v) { return hex_of<6>(v); }
std::string to_hex(const Fp& v) { return hex_of<6>(v.canonical()); }
std::string to_hex(const Scalar& v) { return hex_of<4>(v); }

Scalar reduce_scalar(const BigInt<4>& v) { return Fr::from_canonical(v).canonical(); }
Scalar scalar_from_fr(const Fr& v) { return v.canonical(); }

bool in_subgroup(const G1Affine& p) {
  if (p.infinity) return true;
  Scalar r{};
  r = FrConfig::modulus();
  return scalar_mul(p, r).is_identity();
}

bool validate_g1(const G1Affine& p, std::string& err) {
  if (!p.on_curve()) {
    err = "point is not on the curve y^2 = x^3 + 1";
    return false;
  }
  if (!in_subgroup(p)) {
    err = "point is not in the prime-order subgroup G1";
    return false;
  }
  return true;
}

bool fp_sqrt(const Fp& v, Fp& root) {
  if (v.is_zero()) {
    root = v;
    return true;
  }
  // p - 1 = 2^46 * t with t odd.
  constexpr unsigned S = 46;
  FpRepr t = fp_modulus();
  t.l[0] -= 1;
  for (unsigned i = 0; i < S; ++i) {  // t >>= 1, 46 times
    for (int j = 0; j < 6; ++j) t.l[j] = (t.l[j] >> 1) | (j + 1 < 6 ? t.l[j + 1] << 63 : 0);
  }
  FpRepr t_plus_1_half = t;
  t_plus_1_half.l[0] += 1;  // t is odd, so no carry out of the low word
  for (int j = 0; j < 6; ++j)
    t_plus_1_half.l[j] = (t_plus_1_half.l[j] >> 1) | (j + 1 < 6 ? t_plus_1_half.l[j + 1] << 63 : 0);
  const Fp z = Fp::from_u64(5).pow(t);  // 5 is the smallest quadratic non-residue mod p
  Fp c = z, x = v.pow(t_plus_1_half), b = v.pow(t);
  unsigned m = S;
  while (b != Fp::one()) {
    unsigned i = 0;
    Fp b2 = b;
    while (b2 != Fp::one()) {
      b2 = b2.square();
      if (++i == m) return false;  // v is a non-residue
    }
    Fp w = c;
    for (unsigned j = 0; j + 1 < m - i; ++j) w = w.square();
    x *= w;
    c = w.square();
    b *= c;
    m = i;
  }
  root = x;
  return true;
}

std::array<uint8_t, G1_COMPRESSED_BYTES> serialize_compressed(const G1Affine& p) {
  std::array<uint8_t, G1_COMPRESSED_BYTES> out{};
  if (p.infinity) {
    out[47] = FLAG_INFINITY;
    return out;
  }
  write_fp_le(p.x, out.data());
  if (y_is_negative(p.y)) out[47] |= FLAG_Y_NEGATIVE;
  return out;
}

std::array<uint8_t, G1_UNCOMPRESSED_BYTES> serialize_uncompressed(const G1Affine& p) {
  std::array<uint8_t, G1_UNCOMPRESSED_BYTES> out{};
  if (p.infinity) {
    out[95] = FLAG_INFINITY;
    return out;
  }
  write_fp_le(p.x, out.data());
  write_fp_le(p.y, out.data() + 48);
  if (y_is_negative(p.y)) out[95] |= FLAG_Y_NEGATIVE;
  return out;
}

bool deserialize_compressed(std::span<const uint8_t, G1_COMPRESSED_BYTES> in, G1Affine& out, std::string& err) {
  Fp x;
  uint8_t flags = 0;
  if (!read_fp_le(in.data(), x, flags, err)) return false;
  if (flags == (FLAG_INFINITY | FLAG_Y_NEGATIVE)) {
    err = "both the infinity and the negative-y flag are set";
    return false;
  }
  if (flags & FLAG_INFINITY) {
    // arkworks reads the infinity flag alone; we also insist on a zero x so each point has one encoding.
    if (!x.is_zero()) {
      err = "infinity flag with a nonzero x";
      return false;
    }
    out = G1Affine::identity();
    return true;
  }
  Fp y;
  if (!fp_sqrt(x.square() * x + Fp::one(), y)) {
    err = "x is not the abscissa of a curve point";
    return false;
  }
  if (y_is_negative(y) != ((flags & FLAG_Y_NEGATIVE) != 0)) y = -y;
  out = {x, y, false};
  if (!in_subgroup(out)) {
    err = "point is not in the prime-order subgroup G1";
    return false;
  }
  return true;
}

bool deserialize_uncompressed(std::span<const uint8_t, G1_UNCOMPRESSED_BYTES> in, G1Affine& out, std::string& err) {
  Fp x, y;
  uint8_t xflags = 0, flags = 0;
  if (!read_fp_le(in.data(), x, xflags, err) || !read_fp_le(in.data() + 48, y, flags, err)) return false;
  if (xflags != 0) {
    err = "flag bits set on x of an uncompressed point";
    return false;
  }
  if (flags == (FLAG_INFINITY | FLAG_Y_NEGATIVE)) {
    err = "both the infinity and the negative-y flag are set";
    return false;
  }
  if (flags & FLAG_INFINITY) {
    if (!x.is_zero() || !y.is_zero()) {
      err = "infinity flag with nonzero coordinates";
      return false;
    }
    out = G1Affine::identity();
    return true;
  }
  // arkworks ignores the sign flag of an uncompressed point (y is explicit); so do we.
  out = {x, y, false};
  return validate_g1(out, err);
}

G1Affine to_affine(const G1Jacobian& p) { return jac_to_affine(p); }
G1Affine to_affine(const TeExtended& p) { return te_to_sw(p); }

TeExtended sw_to_te(const G1Affine& p) {
  if (p.infinity) return TeExtended::identity();
  Fp xn, yn, den;
  if (!sw_to_te_fractions(p, xn, yn, den))
    throw_invalid("the twisted-Edwards map is undefined at this point (not in G1)");
  Fp inv = den.inverse();
  Fp X = xn * inv, Y = yn * inv;
  return {X, Y, Fp::one(), X * Y};
}

std::vector<TePrecomputed> precompute_te(std::span<const G1Affine> points) {
  const size_t n = points.size();
  // The MSM reads these at random (144 bytes per point, 144 MiB at 2^20): huge pages spare a TLB
  // miss per access. reserve() allocates without touching, so the advice applies to every page.
  std::vector<TePrecomputed> out;
  out.reserve(n);
  advise_huge_pages(out.data(), n * sizeof(TePrecomputed));
  out.resize(n);
  size_t bad = n;
#pragma omp parallel reduction(min : bad)
  {
    // One batched inversion per thread over its contiguous slice.
    const size_t nt = static_cast<size_t>(omp_get_num_threads()), id = static_cast<size_t>(omp_get_thread_num());
    const size_t lo = n * id / nt, hi = n * (id + 1) / nt;
    std::vector<Fp> prefix(hi - lo);
    size_t b = sw_to_te_batch(points.data() + lo, out.data() + lo, hi - lo, prefix.data());
    if (b != hi - lo) bad = lo + b;
  }
  if (bad != n)
    throw_invalid("point " + std::to_string(bad) +
                  ": the twisted-Edwards map is undefined there (the point is not in G1)");
  return out;
}

}  // namespace zkgpu::bls12_377
