# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Writes, for each of the dialect's own libraries, every library it links
# directly or transitively (following CMake targets' INTERFACE and
# LINK_LIBRARIES), one per line, to ${PROJECT_BINARY_DIR}/link-closure/<lib>.txt.
# test/Tooling/dialect-link-deps.test checks that no target dialect (GPU,
# NVVM, LLVM, OpenMP) is among them: code generation lives in lib/Codegen.

function(quant_affine_link_closure target out_var)
  set(seen)
  set(work ${target})
  while(work)
    list(POP_FRONT work current)
    if(current IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${current})
    if(NOT TARGET ${current})
      continue()
    endif()
    get_target_property(aliased ${current} ALIASED_TARGET)
    if(aliased)
      list(APPEND work ${aliased})
      continue()
    endif()
    foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(deps ${current} ${property})
      if(deps)
        foreach(dep ${deps})
          # Generator expressions such as $<LINK_ONLY:x> name x.
          string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
          if(NOT dep MATCHES "^\\$<")
            list(APPEND work ${dep})
          endif()
        endforeach()
      endif()
    endforeach()
  endwhile()
  list(REMOVE_ITEM seen ${target})
  set(${out_var} ${seen} PARENT_SCOPE)
endfunction()

foreach(library QuantAffineEncoding QuantAffineKnownDivisor QuantAffineDialect
        QuantAffineTilingInterfaceImpl QuantAffineTransforms)
  quant_affine_link_closure(${library} closure)
  list(JOIN closure "\n" text)
  file(WRITE ${PROJECT_BINARY_DIR}/link-closure/${library}.txt "${text}\n")
endforeach()
