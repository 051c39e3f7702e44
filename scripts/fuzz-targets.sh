# The libFuzzer targets of tests/fuzz and the largest input each is given (its biggest seeds fit:
# an ML-DSA-87 verify line is 14.4 KB of hex, a WHIR proof up to 64 KB). Sourced by
# scripts/ci-fuzz.sh and scripts/fuzz-campaign.sh.
FUZZ_TARGETS=(whir_proof_fuzz ed25519_line_fuzz msm_input_fuzz mlkem_line_fuzz mldsa_line_fuzz
              bls12_377_encoding_fuzz poseidon2_line_fuzz)
declare -A FUZZ_MAX_LEN=(
  [whir_proof_fuzz]=65536 [ed25519_line_fuzz]=4096 [msm_input_fuzz]=512
  [mlkem_line_fuzz]=16384 [mldsa_line_fuzz]=16384 [bls12_377_encoding_fuzz]=256 [poseidon2_line_fuzz]=4096
)
