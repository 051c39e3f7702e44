// `zkgpu poseidon2 permute --field`: KoalaBear through the CLI gives Plonky3's known answers, and a
// constant set of the other field, or a value not below the field's p, is a usage error (exit 2)
// naming the problem.
#include <string>

#include "support/cli_runner.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {
namespace {

using test::CliRun;
using test::run_cli;

const std::string IN16 =
    "894848333 1437655012 1200606629 1690012884 71131202 1749206695 1717947831 120589055 19776022 42382981 "
    "1831865506 724844064 171220207 1299207443 227047920 1783754913\n";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Plonky3 koala-bear/src/poseidon2.rs at 0056fa836d7fba9cb3fc77f3bbc47abd59c80ac0.
TEST(Poseidon2FieldCli, KoalaBearGivesPlonky3sKnownAnswers) {
  const std::string want_a =
      "1934285469 604889435 133449501 1026180808 1830659359 176667110 1391183747 351743874 1238264085 1292768839 "
      "2023573270 1201586780 1360691759 1230682461 748270449 651545025\n";
  const std::string want_b =
      "652590279 1200629963 1013089423 1840372851 19101828 561050015 1714865585 994637181 498949829 729884572 "
      "1957973925 263012103 535029297 2121808603 964663675 1473622080\n";
  for (const char* backend : {"cpu", "auto"}) {
    const std::string b = std::string(" --backend ") + backend;
    EXPECT_EQ(run_cli("poseidon2 permute --field koalabear --width 16 --constants plonky3" + b, IN16, true).out,
              want_a);
    EXPECT_EQ(run_cli("poseidon2 permute --field koalabear --constants xoroshiro1" + b, IN16, true).out, want_b);
  }
  if (cuda_usable()) {
    EXPECT_EQ(run_cli("poseidon2 permute --field koalabear --backend cuda", IN16, true).out, want_a);
  }
  // BabyBear stays the default field.
  EXPECT_EQ(run_cli("poseidon2 permute", IN16, true).out,
            run_cli("poseidon2 permute --field babybear --constants plonky3", IN16, true).out);
}

TEST(Poseidon2FieldCli, OtherFieldsSetsAndValuesAreUsageErrors) {
  struct Case {
    std::string args, input, message;
  } cases[] = {
      {"poseidon2 permute --field koalabear --constants whir", IN16, "--constants whir is BabyBear's set"},
      {"poseidon2 permute --field babybear --constants xoroshiro1", IN16, "--constants xoroshiro1 is KoalaBear's set"},
      {"poseidon2 permute --field goldilocks", IN16, "--field: 'goldilocks' is not one of babybear|koalabear"},
      {"poseidon2 permute --field koalabear", "2130706433" + std::string(15, ' ') + "\n",
       "is not below p = 2130706433"},
      // Below KoalaBear's p but not BabyBear's.
      {"poseidon2 permute --field babybear", "2013265921 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
       "line 1: value 1 '2013265921' is not below p = 2013265921"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const CliRun r = run_cli(c.args, c.input);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, c.message)) << r.out;
  }
  const CliRun ok = run_cli("poseidon2 permute --field koalabear", "2013265921 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n");
  EXPECT_EQ(ok.rc, 0) << ok.out;
}

}  // namespace
}  // namespace zkgpu
