# `cmake --install`: the public headers (include/zkgpu, with the header-only arithmetic of
# include/zkgpu/core), libzkgpu.a and libzkgpu.so, and the CMake package that find_package(zkgpu)
# reads: zkgpu::zkgpu (the shared library) and zkgpu::zkgpu_static. The ctest test
# package_consumer (cmake/tests.cmake) installs into a temporary prefix and builds
# tests/package_consumer against both.
include(CMakePackageConfigHelpers)
set(ZKGPU_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/zkgpu)

set_target_properties(zkgpu PROPERTIES EXPORT_NAME zkgpu_static)
set(ZKGPU_INSTALL_TARGETS zkgpu)
if(ZKGPU_BUILD_SHARED)
  set_target_properties(zkgpu_shared PROPERTIES EXPORT_NAME zkgpu)
  list(APPEND ZKGPU_INSTALL_TARGETS zkgpu_shared)
endif()
install(TARGETS ${ZKGPU_INSTALL_TARGETS} EXPORT zkgpuTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/zkgpu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
install(FILES include/zkgpu.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})  # the C ABI (docs/c-api.md)
install(EXPORT zkgpuTargets NAMESPACE zkgpu:: DESTINATION ${ZKGPU_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/zkgpuConfig.cmake.in ${PROJECT_BINARY_DIR}/zkgpuConfig.cmake
                              INSTALL_DESTINATION ${ZKGPU_INSTALL_CMAKEDIR})
# Before 1.0 only the same minor release is compatible (the SONAME says the same).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/zkgpuConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/zkgpuConfig.cmake ${PROJECT_BINARY_DIR}/zkgpuConfigVersion.cmake
        DESTINATION ${ZKGPU_INSTALL_CMAKEDIR})

# pkg-config, for builds that do not use CMake: C programs of the C ABI, the Go binding's cgo
# flags, the Rust crate's build.rs. Cflags must suit a C compiler (no -std=c++20: C++ users of the
# C++ API add it themselves). Libs.private is what `--static` adds for libzkgpu.a: the OpenMP
# runtime this compiler's -fopenmp links (as libraries, so a C linker of another family finds the
# same one), the C++ runtime a C driver does not add, and the static CUDA runtime.
set(ZKGPU_PC_LIBS_PRIVATE "")
foreach(lib IN LISTS OpenMP_CXX_LIB_NAMES)
  # With its directory: clang's libomp lives in /usr/lib/llvm-N/lib, which a plain link does not search.
  if(OpenMP_${lib}_LIBRARY)
    get_filename_component(dir "${OpenMP_${lib}_LIBRARY}" DIRECTORY)
    string(APPEND ZKGPU_PC_LIBS_PRIVATE "-L${dir} ")
  endif()
  string(APPEND ZKGPU_PC_LIBS_PRIVATE "-l${lib} ")
endforeach()
string(APPEND ZKGPU_PC_LIBS_PRIVATE "-lstdc++ -lm")
set(ZKGPU_HAVE_CUDA_NUM 0)
if(ZKGPU_HAVE_CUDA)
  set(ZKGPU_HAVE_CUDA_NUM 1)
  string(APPEND ZKGPU_PC_LIBS_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt")
endif()
# A sanitizer build's library needs the sanitizer runtimes in whatever links it, shared or static.
set(ZKGPU_PC_LIBS_SANITIZE "")
if(ZKGPU_SANITIZE)
  set(ZKGPU_PC_LIBS_SANITIZE " -fsanitize=${ZKGPU_SANITIZE}")
endif()
# Relocatable: the prefix is found from the .pc file's own place (${pcfiledir}), so
# `cmake --install --prefix DIR` gives a zkgpu.pc that points into DIR.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(FATAL_ERROR "zkgpu: CMAKE_INSTALL_LIBDIR must be relative to the prefix (zkgpu.pc is relocatable)")
endif()
file(RELATIVE_PATH ZKGPU_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
set(ZKGPU_PC_PREFIX "\${pcfiledir}/${ZKGPU_PC_TO_PREFIX}")
configure_file(cmake/zkgpu.pc.in ${PROJECT_BINARY_DIR}/zkgpu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/zkgpu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
