#include <gtest/gtest.h>

#include "bls12_377/bls_test_support.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

Fp fp_hex(const char* h) {
  Fp v;
  std::string err;
  EXPECT_TRUE(parse_fp_hex(h, v, err)) << err;
  return v;
}

TEST(Bls12377Curve, GeneratorAndOrder) {
  G1Affine g = G1Affine::generator();
  EXPECT_EQ(g.x,
            fp_hex("8848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef"));
  EXPECT_TRUE(g.on_curve());
  EXPECT_TRUE(scalar_mul(g, r_minus(0)).is_identity());
  EXPECT_EQ(jac_to_affine(scalar_mul(g, r_minus(1))), g.neg());
  EXPECT_TRUE(in_subgroup(g));
  // 2G and 3G from an independent big-integer computation.
  EXPECT_EQ(mul_g(scalar_u64(2)).x,
            fp_hex("ed453141939e91056edb5a4b5452ed7e61f7f3dd2a4b7ee90e97c9a2301955880661656781dc90857aed6d6a416390"));
  EXPECT_EQ(mul_g(scalar_u64(3)).y,
            fp_hex("14a00fa77c727e8987cc438b51bbe012c823a19955ae692c54ce572a61f0ea1fe5cd981533df419fd1330d1f6e6d802"));
}

TEST(Bls12377Curve, TwistedEdwardsGeneratorMatchesSpecRoot) {
  TeExtended t = sw_to_te(G1Affine::generator());
  // shared/vectors/bls12_377: with c = 0x1870a70a...cbc191d (our root) the generator maps to (X, Y);
  // arkworks' TE_GENERATOR is (-X, Y) because it uses p - c.
  EXPECT_EQ(t.x,
            fp_hex("137c3fd5e82e30c541a968bcf5242df918e2fcec39fea356e012275f2d658c050b303d25d168b6d11bf6d572133a0d0"));
  EXPECT_EQ(t.y,
            fp_hex("a4629e5e925541c842f6662836666f31a521893f198babf955b78a541ff7376d4a72116b634a98e04f356c761573b"));
  // On -X^2 + Y^2 = 1 + d X^2 Y^2.
  Fp d = curve_consts::d(), xx = t.x.square(), yy = t.y.square();
  EXPECT_EQ(yy - xx, Fp::one() + d * xx * yy);
  EXPECT_EQ(to_affine(t), G1Affine::generator());
  EXPECT_EQ(sw_to_te(G1Affine::identity()).x, Fp::zero());
  EXPECT_EQ(to_affine(TeExtended::identity()), G1Affine::identity());
}

TEST(Bls12377Curve, MapRoundTripAndAdditionLaw) {
  Rng rng(10);
  for (int i = 0; i < 20; ++i) {
    G1Affine p = mul_g(random_scalar(rng)), q = mul_g(random_scalar(rng));
    TeExtended tp = sw_to_te(p), tq = sw_to_te(q);
    EXPECT_EQ(to_affine(tp), p);
    EXPECT_EQ(to_affine(te_add(tp, tq)), naive_add(p, q));
    EXPECT_EQ(to_affine(te_add(tp, tp)), naive_add(p, p));
    EXPECT_EQ(to_affine(te_double(tp)), naive_add(p, p));
    EXPECT_EQ(to_affine(te_add(tp, tp.neg())), G1Affine::identity());
    EXPECT_EQ(to_affine(te_add(tp, TeExtended::identity())), p);
    // Mixed adder with the stored form, including doubling and the identity operand.
    TePrecomputed pq = precompute_te(std::vector<G1Affine>{q})[0];
    EXPECT_EQ(to_affine(te_add_precomputed(tp, pq)), naive_add(p, q));
    EXPECT_EQ(to_affine(te_add_precomputed(tq, pq)), naive_add(q, q));
    EXPECT_EQ(to_affine(te_add_precomputed(tq, pq.neg())), G1Affine::identity());
    EXPECT_EQ(to_affine(te_add_precomputed(TeExtended::identity(), pq)), q);
    EXPECT_EQ(to_affine(te_add_precomputed(tp, TePrecomputed::identity())), p);
  }
}

// The signed mixed adder of the GPU bucket sums returns the bytes of te_add_precomputed on q or
// q.neg() (not only the same point): extended coordinates compared word for word, chained so the
// accumulator runs through general values, with the identity and doublings among the operands.
TEST(Bls12377Curve, SignedMixedAdderMatchesNegatedOperandBytes) {
  Rng rng(12);
  std::vector<G1Affine> pts;
  for (int i = 0; i < 24; ++i) pts.push_back(mul_g(random_scalar(rng)));
  pts.push_back(G1Affine::identity());
  pts.push_back(pts[3]);
  std::vector<TePrecomputed> pre = precompute_te(pts);
  TeExtended plain = TeExtended::identity(), sign = TeExtended::identity();
  auto same = [](const TeExtended& a, const TeExtended& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.t == b.t;
  };
  for (size_t i = 0; i < pre.size(); ++i) {
    for (bool neg : {false, true, (rng.gen() & 1) != 0}) {
      const TePrecomputed& q = pre[i];
      const TeExtended want = te_add_precomputed(plain, neg ? q.neg() : q);
      const TeExtended got = te_add_precomputed_signed(sign, neg ? q.ypx : q.ymx, neg ? q.ymx : q.ypx, q.kt, neg);
      ASSERT_TRUE(same(got, want)) << "entry " << i << (neg ? " negated" : "");
      plain = want;
      sign = got;
    }
  }
  EXPECT_EQ(to_affine(plain), to_affine(sign));
}

TEST(Bls12377Curve, WeierstrassFormulasMatchNaive) {
  Rng rng(11);
  for (int i = 0; i < 20; ++i) {
    G1Affine p = mul_g(random_scalar(rng)), q = mul_g(random_scalar(rng));
    G1Jacobian jp = G1Jacobian::from_affine(p), jq = G1Jacobian::from_affine(q);
    EXPECT_EQ(jac_to_affine(jac_add(jp, jq)), naive_add(p, q));
    EXPECT_EQ(jac_to_affine(jac_add_mixed(jp, q)), naive_add(p, q));
    EXPECT_EQ(jac_to_affine(jac_add(jp, jp)), naive_add(p, p));
    EXPECT_EQ(jac_to_affine(jac_add_mixed(jp, p)), naive_add(p, p));
    EXPECT_EQ(jac_to_affine(jac_add_mixed(jp, p.neg())), G1Affine::identity());
    EXPECT_EQ(jac_to_affine(jac_add(jp, G1Jacobian::identity())), p);
    EXPECT_EQ(jac_to_affine(jac_add_mixed(G1Jacobian::identity(), q)), q);
    G1Jacobian jq2 = jac_double(jq);  // a non-normalised operand
    EXPECT_EQ(jac_to_affine(jac_add(jp, jq2)), naive_add(p, naive_add(q, q)));

    G1Xyzz xp = xyzz_add_mixed(G1Xyzz::identity(), p);
    EXPECT_EQ(xyzz_to_affine(xyzz_add_mixed(xp, q)), naive_add(p, q));
    EXPECT_EQ(xyzz_to_affine(xyzz_add_mixed(xp, p)), naive_add(p, p));
    EXPECT_EQ(xyzz_to_affine(xyzz_add_mixed(xp, p.neg())), G1Affine::identity());
    G1Xyzz xq2 = xyzz_double(xyzz_add_mixed(G1Xyzz::identity(), q));
    EXPECT_EQ(xyzz_to_affine(xq2), naive_add(q, q));
    EXPECT_EQ(xyzz_to_affine(xyzz_add(xp, xq2)), naive_add(p, naive_add(q, q)));
    EXPECT_EQ(xyzz_to_affine(xyzz_add(xq2, xq2)), naive_add(naive_add(q, q), naive_add(q, q)));
  }
}

// A curve point outside G1 (cofactor part nontrivial) is rejected; clearing the cofactor fixes it.
TEST(Bls12377Curve, SubgroupCheckRejectsCofactorPoints) {
  Rng rng(12);
  int found = 0;
  for (int i = 0; i < 64 && found < 3; ++i) {
    Fp x = random_fp(rng), y;
    if (!fp_sqrt(x.square() * x + Fp::one(), y)) continue;
    G1Affine p{x, y, false};
    ASSERT_TRUE(p.on_curve());
    std::string err;
    EXPECT_FALSE(in_subgroup(p));
    EXPECT_FALSE(validate_g1(p, err));
    EXPECT_NE(err.find("subgroup"), std::string::npos);
    Scalar h{{0x0000000000000000ull, 0x170b5d4430000000ull, 0, 0}};  // cofactor (x-1)^2/3
    G1Affine cleared = jac_to_affine(scalar_mul(p, h));
    EXPECT_TRUE(in_subgroup(cleared));
    ++found;
  }
  EXPECT_EQ(found, 3);
  std::string err;
  G1Affine off{Fp::one(), Fp::one(), false};
  EXPECT_FALSE(validate_g1(off, err));
  EXPECT_NE(err.find("not on the curve"), std::string::npos);
}

// The map is undefined at the 2-torsion points (y = 0); precompute_te names the index.
TEST(Bls12377Curve, PrecomputeRejectsExceptionalPoints) {
  G1Affine t2{-Fp::one(), Fp::zero(), false};  // (-1, 0): x^3 + 1 = 0
  ASSERT_TRUE(t2.on_curve());
  std::vector<G1Affine> pts = {G1Affine::generator(), G1Affine::identity(), t2};
  try {
    precompute_te(pts);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("point 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace zkgpu::test
