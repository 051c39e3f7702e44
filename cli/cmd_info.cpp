#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/version.hpp"

namespace zkgpu::cli {

namespace {
struct InfoOptions {
  bool json = false;
};
}  // namespace

void add_info_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Show the backends, the GPU (or why none is usable) and the CPU features");
  auto o = std::make_shared<InfoOptions>();
  add_common_options(cmd, {.json = &o->json});
  cmd->callback([o] {
    const bool json = o->json;
    CpuFeatures f = cpu_features();
    const SimdLevel simd = simd_level();  // before any output: a bad ZKGPU_SIMD fails here
    auto g = gpu_info();
    if (json) {
      nlohmann::json j;
      j["version"] = version();
      j["cpu"] = {{"model", f.model},
                  {"threads", f.threads},
                  {"avx2", f.avx2},
                  {"avx512", f.avx512},
                  {"simd_level", to_string(simd)}};
      j["cuda_built"] = cuda_built();
      if (g) {
        j["gpu"] = {{"name", g->name},
                    {"compute_capability", std::to_string(g->cc_major) + "." + std::to_string(g->cc_minor)},
                    {"sm_count", g->sm_count},
                    {"total_memory", g->total_memory},
                    {"free_memory", g->free_memory},
                    {"driver_version", g->driver_version},
                    {"runtime_version", g->runtime_version}};
      } else {
        j["gpu"] = nullptr;
        j["gpu_unavailable_reason"] = cuda_unavailable_reason();
      }
      j["backends"] = g ? nlohmann::json::array({"cpu", "cuda"}) : nlohmann::json::array({"cpu"});
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::cout << "zkgpu " << version() << "\n";
    std::cout << "backends:   cpu"
              << (g ? ", cuda  (auto picks cuda from each operation's crossover up)\n"
                    : "  (no usable GPU: auto runs everything on the cpu)\n");
    std::cout << "cpu:        " << f.model << ", " << f.threads << " threads, AVX2 " << (f.avx2 ? "yes" : "no")
              << ", AVX-512 " << (f.avx512 ? "yes" : "no") << ", using " << to_string(simd) << "\n";
    if (g) {
      std::cout << "gpu:        " << g->name << " (sm_" << g->cc_major << g->cc_minor << ", " << g->sm_count
                << " SMs), " << g->total_memory / (1u << 20) << " MiB total, " << g->free_memory / (1u << 20)
                << " MiB free, driver " << g->driver_version << ", runtime " << g->runtime_version << "\n";
    } else {
      std::cout << "gpu:        none (" << cuda_unavailable_reason() << ")\n";
    }
    std::cout << "cuda built: " << (cuda_built() ? "yes" : "no") << "\n";
  });
}

}  // namespace zkgpu::cli
