# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#===- QuantAffineSanitizers.cmake - ASan/UBSan build of our code -*- cmake -*-===//
#
# QUANT_AFFINE_USE_SANITIZER, in LLVM's style: "Address", "Undefined" or
# "Address;Undefined". Every target this project builds (the driver, the
# libraries, the unit tests, the CUDA runtime library and its probe) is
# compiled and linked with the sanitizers. The MLIR/LLVM libraries come
# prebuilt from Debian and are not instrumented: our code's accesses into
# their objects are checked, their own code is not.
#
# Sets QUANT_AFFINE_ASAN_RUNTIME to the shared ASan runtime, which lit
# preloads where an uninstrumented host (mlir-runner) loads one of our
# instrumented shared libraries.
#
#===----------------------------------------------------------------------===//
set(QUANT_AFFINE_USE_SANITIZER "" CACHE STRING
  "Build this project's code with sanitizers: Address, Undefined or \"Address;Undefined\"")
set(QUANT_AFFINE_ASAN_RUNTIME "")

if(QUANT_AFFINE_USE_SANITIZER)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "QUANT_AFFINE_USE_SANITIZER needs GCC or Clang")
  endif()
  set(_qa_san_flags -fno-omit-frame-pointer)
  set(_qa_san_link_flags)
  foreach(_qa_san IN LISTS QUANT_AFFINE_USE_SANITIZER)
    if(_qa_san STREQUAL "Address")
      list(APPEND _qa_san_flags -fsanitize=address)
      list(APPEND _qa_san_link_flags -fsanitize=address)
    elseif(_qa_san STREQUAL "Undefined")
      # UB stops the program (-fno-sanitize-recover) so a test fails on it.
      # vptr needs RTTI, which LLVM/MLIR code is built without.
      # float-cast-overflow (a float out of the integer type's range, UB in
      # C++) is part of Clang's "undefined" but not of GCC's; name it.
      list(APPEND _qa_san_flags -fsanitize=undefined -fsanitize=float-cast-overflow
           -fno-sanitize=vptr -fno-sanitize-recover=undefined,float-cast-overflow)
      list(APPEND _qa_san_link_flags -fsanitize=undefined -fsanitize=float-cast-overflow)
    else()
      message(FATAL_ERROR "QUANT_AFFINE_USE_SANITIZER: unknown sanitizer '${_qa_san}' "
                          "(use Address, Undefined or \"Address;Undefined\")")
    endif()
  endforeach()
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # One shared runtime for the driver and our shared libraries, as with GCC;
    # Clang links a static one into executables by default.
    list(APPEND _qa_san_link_flags -shared-libsan)
  endif()
  add_compile_options(${_qa_san_flags})
  add_link_options(${_qa_san_link_flags})

  if("Address" IN_LIST QUANT_AFFINE_USE_SANITIZER)
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      set(_qa_asan_lib "libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so")
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir
        OUTPUT_VARIABLE _qa_rt_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(EXISTS "${_qa_rt_dir}/libclang_rt.asan.so")
        set(QUANT_AFFINE_ASAN_RUNTIME "${_qa_rt_dir}/libclang_rt.asan.so")
      else()
        set(QUANT_AFFINE_ASAN_RUNTIME "${_qa_rt_dir}/${_qa_asan_lib}")
      endif()
    else()
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
        OUTPUT_VARIABLE QUANT_AFFINE_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
    endif()
    if(NOT EXISTS "${QUANT_AFFINE_ASAN_RUNTIME}")
      message(WARNING "QUANT_AFFINE_USE_SANITIZER: no shared ASan runtime found "
                      "(${QUANT_AFFINE_ASAN_RUNTIME}); tests that load our CUDA "
                      "runtime into mlir-runner will fail")
      set(QUANT_AFFINE_ASAN_RUNTIME "")
    endif()
  endif()
  message(STATUS "quant-affine sanitizers: ${QUANT_AFFINE_USE_SANITIZER} "
                 "(${_qa_san_flags})")
endif()
