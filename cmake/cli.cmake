# The command-line tool (ZKGPU_BUILD_CLI), included from CMakeLists.txt.
find_package(CLI11 CONFIG REQUIRED)
file(GLOB ZKGPU_CLI_SOURCES CONFIGURE_DEPENDS cli/*.cpp)
add_executable(zkgpu_cli ${ZKGPU_CLI_SOURCES})
set_target_properties(zkgpu_cli PROPERTIES OUTPUT_NAME zkgpu)
target_compile_options(zkgpu_cli PRIVATE ${ZKGPU_WARNINGS})
target_link_libraries(zkgpu_cli PRIVATE zkgpu zkgpu_bench_support CLI11::CLI11 nlohmann_json::nlohmann_json
                                        OpenSSL::Crypto PkgConfig::SODIUM)
