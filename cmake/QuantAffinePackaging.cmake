# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#===- QuantAffinePackaging.cmake - install() and export rules -*- cmake -*-===//
#
# `cmake --install build --prefix P` installs
#
#   P/include/QuantAffine/...          public headers and .td files
#   P/include/QuantAffine/....h.inc    the generated headers they include
#   P/include/quant-affine-c/...       the C API headers
#   P/lib/libQuantAffine*.a            every library built by add_mlir_*_library
#   P/lib/libquant_affine_cuda_runtime.so   (when the CUDA runtime is built)
#   P/bin/quant-affine-opt
#   P/lib/cmake/quant-affine/QuantAffineConfig.cmake,
#     QuantAffineConfigVersion.cmake, QuantAffineTargets*.cmake
#   P/lib/cmake/QuantAffine/*.cmake   forwarders, for CMAKE_PREFIX_PATH=P
#
# so that a downstream project writes `find_package(QuantAffine CONFIG)` and
# links the imported targets `QuantAffine::<library>` (docs/Embedding.md).
#
# No per-library rule is needed: out of tree, add_mlir_library (and so
# add_mlir_dialect_library, add_mlir_conversion_library and
# add_mlir_public_c_api_library) installs each library into the export set
# `MLIRTargets` (AddMLIR.cmake: add_mlir_library_install with
# get_target_export_arg(... MLIR ...)) and records it in the global property
# MLIR_EXPORTS. In this project that set holds only our own targets, so it is
# exported here under our own file name and namespace; MLIR's imported targets
# (MLIRIR, ...) stay plain names that find_dependency(MLIR) defines.
#
# Include this file last from the top-level CMakeLists.txt, after every
# library is defined.
#
#===----------------------------------------------------------------------===//
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(QUANT_AFFINE_INSTALL_PACKAGE_DIR "lib${LLVM_LIBDIR_SUFFIX}/cmake/quant-affine"
  CACHE STRING "Path for CMake package files, relative to CMAKE_INSTALL_PREFIX")

# Headers: the source tree's (with the .td files, for projects that build on
# our ODS) and the generated .inc files from the build tree.
install(DIRECTORY
    ${QUANT_AFFINE_SOURCE_DIR}/include/QuantAffine
    ${QUANT_AFFINE_SOURCE_DIR}/include/quant-affine-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT quant-affine-headers
  FILES_MATCHING
  PATTERN "*.h"
  PATTERN "*.td")
install(DIRECTORY ${QUANT_AFFINE_BINARY_DIR}/include/QuantAffine
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT quant-affine-headers
  FILES_MATCHING
  PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# The libraries. Consumers of an installed library find our headers through
# the target; MLIR's and LLVM's include directories are added by
# QuantAffineConfig.cmake, from the MLIR it finds.
get_property(QUANT_AFFINE_EXPORTS GLOBAL PROPERTY MLIR_EXPORTS)
foreach(_qa_target IN LISTS QUANT_AFFINE_EXPORTS)
  set_property(TARGET ${_qa_target} APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# The driver and the CUDA runtime library go into the same export set.
install(TARGETS quant-affine-opt
  EXPORT MLIRTargets
  COMPONENT quant-affine-opt
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
list(APPEND QUANT_AFFINE_EXPORTS quant-affine-opt)
# The ONNX importer (a tool only: its library links Debian's protobuf
# messages, which the package does not export).
if(TARGET quant-affine-translate)
  install(TARGETS quant-affine-translate
    COMPONENT quant-affine-translate
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET quant_affine_cuda_runtime)
  install(TARGETS quant_affine_cuda_runtime
    EXPORT MLIRTargets
    COMPONENT quant_affine_cuda_runtime
    LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX})
  list(APPEND QUANT_AFFINE_EXPORTS quant_affine_cuda_runtime)
endif()

install(EXPORT MLIRTargets
  NAMESPACE QuantAffine::
  FILE QuantAffineTargets.cmake
  DESTINATION ${QUANT_AFFINE_INSTALL_PACKAGE_DIR}
  COMPONENT quant-affine-cmake-exports)

# QuantAffineConfig.cmake finds the MLIR this tree was built with first.
set(QUANT_AFFINE_CONFIG_MLIR_DIR "${MLIR_DIR}")
set(QUANT_AFFINE_CONFIG_MLIR_VERSION "${MLIR_VERSION_MAJOR}.${MLIR_VERSION_MINOR}")
set(QUANT_AFFINE_CONFIG_EXPORTS "${QUANT_AFFINE_EXPORTS}")
set(QUANT_AFFINE_CONFIG_CUDA_RUNTIME OFF)
if(TARGET quant_affine_cuda_runtime)
  set(QUANT_AFFINE_CONFIG_CUDA_RUNTIME ON)
endif()
set(QUANT_AFFINE_CONFIG_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
set(QUANT_AFFINE_CONFIG_BINDIR "${CMAKE_INSTALL_BINDIR}")
set(QUANT_AFFINE_CONFIG_LIBDIR "lib${LLVM_LIBDIR_SUFFIX}")
configure_package_config_file(
  ${QUANT_AFFINE_SOURCE_DIR}/cmake/QuantAffineConfig.cmake.in
  ${QUANT_AFFINE_BINARY_DIR}/lib/cmake/quant-affine/QuantAffineConfig.cmake
  INSTALL_DESTINATION ${QUANT_AFFINE_INSTALL_PACKAGE_DIR}
  PATH_VARS QUANT_AFFINE_CONFIG_INCLUDEDIR QUANT_AFFINE_CONFIG_BINDIR
            QUANT_AFFINE_CONFIG_LIBDIR)
# Static libraries built against one MLIR: a newer minor version is another
# package.
write_basic_package_version_file(
  ${QUANT_AFFINE_BINARY_DIR}/lib/cmake/quant-affine/QuantAffineConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
    ${QUANT_AFFINE_BINARY_DIR}/lib/cmake/quant-affine/QuantAffineConfig.cmake
    ${QUANT_AFFINE_BINARY_DIR}/lib/cmake/quant-affine/QuantAffineConfigVersion.cmake
  DESTINATION ${QUANT_AFFINE_INSTALL_PACKAGE_DIR}
  COMPONENT quant-affine-cmake-exports)

# find_package's search of CMAKE_PREFIX_PATH looks in lib/cmake/<Name>*/ with
# the package's name, QuantAffine, which "quant-affine" does not match: two
# forwarding files in lib/cmake/QuantAffine make `-DCMAKE_PREFIX_PATH=<prefix>`
# work as well as `-DQuantAffine_DIR=<prefix>/lib/cmake/quant-affine`.
get_filename_component(_qa_package_dir_name ${QUANT_AFFINE_INSTALL_PACKAGE_DIR} NAME)
get_filename_component(_qa_cmake_dir ${QUANT_AFFINE_INSTALL_PACKAGE_DIR} DIRECTORY)
if(NOT _qa_package_dir_name STREQUAL "QuantAffine")
  foreach(_qa_file QuantAffineConfig.cmake QuantAffineConfigVersion.cmake)
    file(WRITE ${QUANT_AFFINE_BINARY_DIR}/lib/cmake/QuantAffine/${_qa_file}
      "# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception\n"
      "# Forwards to ../${_qa_package_dir_name}/${_qa_file} (QuantAffinePackaging.cmake).\n"
      "include(\"\${CMAKE_CURRENT_LIST_DIR}/../${_qa_package_dir_name}/${_qa_file}\")\n")
    install(FILES ${QUANT_AFFINE_BINARY_DIR}/lib/cmake/QuantAffine/${_qa_file}
      DESTINATION ${_qa_cmake_dir}/QuantAffine
      COMPONENT quant-affine-cmake-exports)
  endforeach()
endif()
