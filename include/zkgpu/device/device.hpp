// All of zkgpu's header-only device arithmetic (BabyBear, BabyBear4, Poseidon2, BLS12-377), for a
// user's own CUDA kernels (examples/cuda shows one).
#pragma once
#include "zkgpu/device/babybear.hpp"
#include "zkgpu/device/bls12_377.hpp"
#include "zkgpu/device/poseidon2.hpp"
