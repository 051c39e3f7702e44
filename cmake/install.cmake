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
install(EXPORT zkgpuTargets NAMESPACE zkgpu:: DESTINATION ${ZKGPU_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/zkgpuConfig.cmake.in ${PROJECT_BINARY_DIR}/zkgpuConfig.cmake
                              INSTALL_DESTINATION ${ZKGPU_INSTALL_CMAKEDIR})
# Before 1.0 only the same minor release is compatible (the SONAME says the same).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/zkgpuConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/zkgpuConfig.cmake ${PROJECT_BINARY_DIR}/zkgpuConfigVersion.cmake
        DESTINATION ${ZKGPU_INSTALL_CMAKEDIR})

# pkg-config, for builds that do not use CMake (and the Go binding's cgo flags).
set(ZKGPU_PC_LIBS_PRIVATE "-fopenmp -lpthread")
set(ZKGPU_HAVE_CUDA_NUM 0)
if(ZKGPU_HAVE_CUDA)
  set(ZKGPU_HAVE_CUDA_NUM 1)
  string(APPEND ZKGPU_PC_LIBS_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt")
endif()
configure_file(cmake/zkgpu.pc.in ${PROJECT_BINARY_DIR}/zkgpu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/zkgpu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
