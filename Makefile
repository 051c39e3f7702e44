# Entry points: `make demo` (build, then show the machine, prove and verify a WHIR commitment
# opening, and run a short primitives benchmark) and
# `make test` (build, then the whole test suite through ctest). Both install missing packages first.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps configure build test demo bench clean

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
	$(BUILD)/zkgpu info
	$(BUILD)/zkgpu whir prove --vars 18 --fold 4 --rate 1 --random 1 --out $(BUILD)/demo-proof.whir
	$(BUILD)/zkgpu whir verify $(BUILD)/demo-proof.whir --vars 18 --fold 4 --rate 1
	$(BUILD)/zkgpu bench all --quick

bench: build
	$(BUILD)/zkgpu bench all

clean:
	rm -rf $(BUILD)
