# The library, included from CMakeLists.txt. Its sources are globbed per concept folder
# (src/<concept>/ with cpu/ and cuda/ inside; ARCHITECTURE.md): every .cpp is host code except
# those in a cuda/ folder, every .cu is CUDA. CPU files ending in _avx512.cpp or _avx2.cpp are
# compiled for that instruction set and only called after a runtime CPU check.
#
# One set of position-independent objects makes both libzkgpu.a (target zkgpu, what the tests,
# the CLI and the benchmarks link) and libzkgpu.so (zkgpu_shared); both are installed and
# exported (cmake/install.cmake). The library needs only OpenMP, Threads and, with the CUDA
# backend, the CUDA runtime.
find_package(OpenMP REQUIRED)
find_package(Threads REQUIRED)

file(GLOB_RECURSE ZKGPU_HOST_SOURCES CONFIGURE_DEPENDS src/*.cpp)
list(FILTER ZKGPU_HOST_SOURCES EXCLUDE REGEX "/cuda/")
list(FILTER ZKGPU_HOST_SOURCES EXCLUDE REGEX "src/runtime/no_cuda\\.cpp$")
if(NOT ZKGPU_HAVE_CUDA)
  list(APPEND ZKGPU_HOST_SOURCES ${PROJECT_SOURCE_DIR}/src/runtime/no_cuda.cpp)
endif()

# Tests and benchmarks use the same naming rule (their ISA files are found below).
function(zkgpu_set_isa_flags)
  foreach(src ${ARGN})
    if(src MATCHES "_avx512\\.cpp$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512bw;-mavx512dq;-mavx512vl;-mavx2;-mfma;-mbmi2")
    elseif(src MATCHES "_avx2\\.cpp$")
      set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma;-mbmi2")
    endif()
  endforeach()
endfunction()

# nvcc flags of every CUDA target (the library's kernels and tools/bench_support's timings).
set(ZKGPU_CUDA_OPTIONS --expt-relaxed-constexpr -Xptxas=-warn-spills -lineinfo)

add_library(zkgpu_objects OBJECT ${ZKGPU_HOST_SOURCES})
zkgpu_set_isa_flags(${ZKGPU_HOST_SOURCES})
# The version lives in project() only; zkgpu::version() (src/runtime/version.cpp) returns it.
set_source_files_properties(src/runtime/version.cpp PROPERTIES COMPILE_DEFINITIONS ZKGPU_VERSION_STRING="${PROJECT_VERSION}")
if(ZKGPU_HAVE_CUDA)
  file(GLOB_RECURSE ZKGPU_CUDA_SOURCES CONFIGURE_DEPENDS src/*.cu)
  target_sources(zkgpu_objects PRIVATE ${ZKGPU_CUDA_SOURCES})
  target_compile_options(zkgpu_objects PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${ZKGPU_CUDA_OPTIONS}>)
  # The ML-KEM / ML-DSA batch drivers pack their chunks with OpenMP (host side of these .cu files).
  set_source_files_properties(src/pq/cuda/mldsa_kernels.cu src/pq/cuda/mldsa_sign.cu src/pq/cuda/mlkem_kernels.cu
                              PROPERTIES COMPILE_OPTIONS "-Xcompiler=-fopenmp")
endif()
set_target_properties(zkgpu_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_compile_options(zkgpu_objects PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${ZKGPU_WARNINGS}>)
target_include_directories(zkgpu_objects PRIVATE src)
target_link_libraries(zkgpu_objects PRIVATE OpenMP::OpenMP_CXX Threads::Threads)
if(ZKGPU_HAVE_CUDA)
  target_link_libraries(zkgpu_objects PRIVATE CUDA::cudart_static)
endif()

# What a user of either library gets: the public headers (include/, installed as is), C++20 and
# ZKGPU_HAVE_CUDA. The static library also carries its link dependencies.
function(zkgpu_usage_requirements target scope)
  target_include_directories(${target} ${scope} $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} ${scope} cxx_std_20)
  if(ZKGPU_HAVE_CUDA)
    target_compile_definitions(${target} ${scope} ZKGPU_HAVE_CUDA=1)
  else()
    target_compile_definitions(${target} ${scope} ZKGPU_HAVE_CUDA=0)
  endif()
  # A sanitizer build's library needs the sanitizer runtimes in whatever links it.
  if(ZKGPU_SANITIZE)
    target_link_options(${target} INTERFACE -fsanitize=${ZKGPU_SANITIZE})
  endif()
endfunction()
include(GNUInstallDirs)
zkgpu_usage_requirements(zkgpu_objects PUBLIC)

add_library(zkgpu STATIC $<TARGET_OBJECTS:zkgpu_objects>)
add_library(zkgpu::zkgpu_static ALIAS zkgpu)
zkgpu_usage_requirements(zkgpu PUBLIC)
target_link_libraries(zkgpu PUBLIC OpenMP::OpenMP_CXX Threads::Threads)
if(ZKGPU_HAVE_CUDA)
  target_link_libraries(zkgpu PUBLIC CUDA::cudart_static)
endif()

if(ZKGPU_BUILD_SHARED)
  # SONAME libzkgpu.so.MAJOR.MINOR: before 1.0 a minor release may change the ABI.
  add_library(zkgpu_shared SHARED $<TARGET_OBJECTS:zkgpu_objects>)
  add_library(zkgpu::zkgpu ALIAS zkgpu_shared)
  set_target_properties(zkgpu_shared PROPERTIES OUTPUT_NAME zkgpu VERSION ${PROJECT_VERSION}
                                                SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  zkgpu_usage_requirements(zkgpu_shared PUBLIC)
  target_link_libraries(zkgpu_shared PRIVATE OpenMP::OpenMP_CXX Threads::Threads)
  if(ZKGPU_HAVE_CUDA)
    target_link_libraries(zkgpu_shared PRIVATE CUDA::cudart_static)
  endif()
endif()
