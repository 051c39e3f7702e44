# Entry points: `make demo` (build, then each capability briefly: the machine, a WHIR proof and its
# verification, an Ed25519 batch verification, a BLS12-377 MSM, ML-KEM and ML-DSA round trips, and
# a short primitives benchmark) and
# `make test` (build, then the whole test suite through ctest). Both install missing packages first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps configure build test demo demo-steps bench clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j$(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

demo: build
	@$(MAKE) --no-print-directory demo-steps

# The demo's steps, without the build: tests/cli/demo_cli_test.cpp runs this target with its own
# ZKGPU and DEMO_DIR, so the demo keeps working. Each step takes seconds on two cores without a GPU.
ZKGPU ?= $(BUILD)/zkgpu
DEMO_DIR ?= $(BUILD)
demo-steps: SHELL := /bin/bash
demo-steps: .SHELLFLAGS := -euo pipefail -c
demo-steps:
	@echo "== the machine"
	$(ZKGPU) info
	@echo "== WHIR: commit to a random 2^18 polynomial, prove an evaluation, verify the proof"
	$(ZKGPU) whir prove --vars 18 --fold 4 --rate 1 --random 1 --out $(DEMO_DIR)/demo-proof.whir
	$(ZKGPU) whir verify $(DEMO_DIR)/demo-proof.whir --vars 18 --fold 4 --rate 1
	@echo "== Ed25519: verify 8 signatures made from seeded keys (one verdict per line, 1 = valid)"
	$(ZKGPU) ed25519 generate --count 8 --seed 1 | $(ZKGPU) ed25519 verify
	@echo "== BLS12-377: the MSM of 4096 random points of G1 (x:y of the sum)"
	$(ZKGPU) msm generate --count 4096 --seed 1 | $(ZKGPU) msm run
	@echo "== ML-KEM-768: keygen, encaps, decaps; both sides must hold the same shared key"
	@d=$$(printf '%064x' 1); \
	  ek_dk=$$(echo "$$d:$$d" | $(ZKGPU) mlkem keygen --set 768); \
	  c_k=$$(echo "$${ek_dk%%:*}:$$d" | $(ZKGPU) mlkem encaps --set 768); \
	  k=$$(echo "$${ek_dk#*:}:$${c_k%%:*}" | $(ZKGPU) mlkem decaps --set 768); \
	  if [ "$$k" != "$${c_k#*:}" ]; then echo "error: decaps gave another key than encaps" >&2; exit 1; fi; \
	  echo "shared key $$k (encaps and decaps agree)"
	@echo "== ML-DSA-65: keygen, sign, verify (1 = valid)"
	@xi=$$(printf '%064x' 2); msg=$$(printf 'zkgpu demo' | od -An -tx1 | tr -d ' \n'); \
	  pk_sk=$$(echo "$$xi" | $(ZKGPU) mldsa keygen --set 65); \
	  sig=$$(echo "$${pk_sk#*:}:$$msg::" | $(ZKGPU) mldsa sign --set 65); \
	  echo "signature of $$(( $${#sig} / 2 )) bytes on \"zkgpu demo\""; \
	  echo "$${pk_sk%%:*}:$$msg::$$sig" | $(ZKGPU) mldsa verify --set 65
	@echo "== the primitives: CPU vs GPU"
	$(ZKGPU) bench all --quick

bench: build
	$(BUILD)/zkgpu bench all

clean:
	rm -rf $(BUILD)
