# Peer libraries of the CLI, the tests and the benchmarks (the library itself does not use them):
# OpenSSL and libsodium for the Ed25519 differential tests and the side-by-side benchmarks,
# nlohmann-json for JSON output and test vectors.
find_package(nlohmann_json REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(PkgConfig REQUIRED)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
