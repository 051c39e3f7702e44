#include <CLI/CLI.hpp>
#include <iostream>

#include "zkgpu/backend.hpp"

int main(int argc, char** argv) {
  CLI::App app{"zkgpu"};
  app.require_subcommand(1);
  auto* info = app.add_subcommand("info", "backends, GPU and CPU features");
  info->callback([] {
    auto f = zkgpu::cpu_features();
    std::cout << "cpu: " << f.model << " threads " << f.threads << " simd " << zkgpu::to_string(zkgpu::simd_level()) << "\n";
    auto g = zkgpu::gpu_info();
    std::cout << "gpu: " << (g ? g->name : zkgpu::cuda_unavailable_reason()) << "\n";
  });
  CLI11_PARSE(app, argc, argv);
  return 0;
}
