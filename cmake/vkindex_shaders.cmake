# Build-time shader pipeline: every GLSL compute shader is compiled to SPIR-V for Vulkan 1.1 (the
# baseline), validated with spirv-val, and embedded into the library as a uint32_t array. Nothing is
# compiled or read from disk at run time.
#
# The compiler is glslangValidator or glslc (the Android NDK ships glslc). A cross build without either
# can take the modules from a host build instead: VKINDEX_PREBUILT_SPIRV_DIR names its `shaders` folder
# (the .spv files are the same for every target).

set(VKINDEX_PREBUILT_SPIRV_DIR "" CACHE PATH "Take <name>.spv from this folder (a host build's shaders/) instead of compiling")
option(VKINDEX_VALIDATE_SPIRV "Validate every SPIR-V module with spirv-val" ON)
if(NOT VKINDEX_PREBUILT_SPIRV_DIR)
  find_program(VKINDEX_GLSL_COMPILER NAMES glslangValidator glslc
               DOC "GLSL to SPIR-V compiler: glslangValidator or glslc")
  if(NOT VKINDEX_GLSL_COMPILER)
    message(FATAL_ERROR "No GLSL compiler: install glslang-tools (glslangValidator) or glslc, set "
                        "VKINDEX_GLSL_COMPILER, or set VKINDEX_PREBUILT_SPIRV_DIR to a host build's shaders folder")
  endif()
  get_filename_component(vkindex_glsl_compiler_name ${VKINDEX_GLSL_COMPILER} NAME_WE)
endif()
if(VKINDEX_VALIDATE_SPIRV)
  find_program(VKINDEX_SPIRV_VAL spirv-val DOC "SPIR-V validator (spirv-tools)")
  if(NOT VKINDEX_SPIRV_VAL)
    message(FATAL_ERROR "spirv-val not found (Debian: spirv-tools); set VKINDEX_VALIDATE_SPIRV=OFF to skip validation")
  endif()
endif()
find_program(VKINDEX_SPIRV_DIS spirv-dis DOC "SPIR-V disassembler, for the readable .spvasm beside each module")

# Compiles one module `name` from `source` with the preprocessor `defines` (NAME or NAME=VALUE),
# validates it, disassembles it for review, and embeds it as `vkindex::shaders::<name>_words`. Sets
# `out_cpp` in the caller to the generated source.
function(_vkindex_embed_one name source defines include_dir out_dir out_cpp)
  set(spv ${out_dir}/${name}.spv)
  set(cpp ${out_dir}/${name}_spv.cpp)
  set(validation_stamp ${out_dir}/${name}.validated)
  set(define_flags "")
  foreach(define ${defines})
    list(APPEND define_flags -D${define})
  endforeach()
  if(VKINDEX_PREBUILT_SPIRV_DIR)
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${CMAKE_COMMAND} -E copy ${VKINDEX_PREBUILT_SPIRV_DIR}/${name}.spv ${spv}
      DEPENDS ${VKINDEX_PREBUILT_SPIRV_DIR}/${name}.spv
      COMMENT "prebuilt: ${name}.spv"
      VERBATIM)
  elseif(vkindex_glsl_compiler_name STREQUAL "glslc")
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${VKINDEX_GLSL_COMPILER} --target-env=vulkan1.1 -I${include_dir} ${define_flags}
              -MD -MF ${spv}.d -o ${spv} ${source}
      DEPENDS ${source}
      DEPFILE ${spv}.d
      COMMENT "glslc: ${name} (${source})"
      VERBATIM)
  else()
    # Depfile: editing any #included header (shaders/common/*) rebuilds the module.
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${VKINDEX_GLSL_COMPILER} --target-env vulkan1.1 -I${include_dir} ${define_flags}
              --depfile ${spv}.d -o ${spv} ${source}
      DEPENDS ${source}
      DEPFILE ${spv}.d
      COMMENT "glslang: ${name} (${source})"
      VERBATIM)
  endif()
  set(validate "")
  if(VKINDEX_VALIDATE_SPIRV)
    set(validate COMMAND ${VKINDEX_SPIRV_VAL} --target-env vulkan1.1 ${spv})
  endif()
  set(disassemble "")
  if(VKINDEX_SPIRV_DIS)
    # A readable disassembly beside each module, for review of what the compiler made of it.
    set(disassemble COMMAND ${VKINDEX_SPIRV_DIS} -o ${out_dir}/${name}.spvasm ${spv})
  endif()
  add_custom_command(
    OUTPUT ${validation_stamp}
    ${validate}
    ${disassemble}
    COMMAND ${CMAKE_COMMAND} -E touch ${validation_stamp}
    DEPENDS ${spv}
    COMMENT "spirv-val: ${name}.spv"
    VERBATIM)
  add_custom_command(
    OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DSPV=${spv} -DOUT=${cpp} -DNAME=${name}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
    DEPENDS ${spv} ${validation_stamp} ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
    COMMENT "embed: ${name}.spv"
    VERBATIM)
  set(${out_cpp} ${cpp} PARENT_SCOPE)
endfunction()

# vkindex_embed_shaders(TARGET target LIST kernel_list.h INCLUDE_DIR dir)
# Compiles every module the list declares (one `VKINDEX_KERNEL(id, module, source, "DEFINES", push)` per
# line: `source` relative to INCLUDE_DIR, DEFINES comma-separated NAME or NAME=VALUE) and adds the
# generated sources to `target`, with a header `embedded_shaders.hpp` (in the target's include path)
# declaring `vkindex::shaders::<module>_words` and `_word_count` for each. Editing the list reconfigures.
function(vkindex_embed_shaders)
  cmake_parse_arguments(ARG "" "TARGET;LIST;INCLUDE_DIR" "" ${ARGN})
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/shaders)
  file(MAKE_DIRECTORY ${out_dir})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ARG_LIST})
  file(STRINGS ${ARG_LIST} entries REGEX "^VKINDEX_KERNEL\\(")
  set(modules "")
  foreach(entry ${entries})
    if(NOT entry MATCHES "^VKINDEX_KERNEL\\(([A-Za-z0-9_]+), ([a-z0-9_]+), ([a-z0-9_]+\\.comp), \"([A-Za-z0-9_=,]*)\", [A-Za-z0-9_:]+\\)$")
      message(FATAL_ERROR "${ARG_LIST}: not one VKINDEX_KERNEL(id, module, source.comp, \"DEFINES\", push) per line: ${entry}")
    endif()
    list(APPEND modules "${CMAKE_MATCH_2}|${ARG_INCLUDE_DIR}/${CMAKE_MATCH_3}|${CMAKE_MATCH_4}")
  endforeach()
  list(LENGTH modules module_count)
  if(module_count EQUAL 0)
    message(FATAL_ERROR "${ARG_LIST} declares no kernel")
  endif()
  set(declarations "")
  set(generated "")
  foreach(module ${modules})
    string(REPLACE "|" ";" fields "${module}")
    list(GET fields 0 name)
    list(GET fields 1 source)
    list(GET fields 2 define_text)
    string(REPLACE "," ";" defines "${define_text}")
    _vkindex_embed_one(${name} ${source} "${defines}" ${ARG_INCLUDE_DIR} ${out_dir} cpp)
    list(APPEND generated ${cpp})
    string(APPEND declarations "extern const uint32_t ${name}_words[];\nextern const size_t ${name}_word_count;\n")
  endforeach()
  set(header ${out_dir}/embedded_shaders.hpp)
  file(GENERATE OUTPUT ${header} CONTENT
"// Generated by cmake/vkindex_shaders.cmake: SPIR-V modules embedded in the library.\n#pragma once\n#include <cstddef>\n#include <cstdint>\nnamespace vkindex::shaders {\n${declarations}}  // namespace vkindex::shaders\n")
  target_sources(${ARG_TARGET} PRIVATE ${generated})
  target_include_directories(${ARG_TARGET} PRIVATE ${out_dir})
endfunction()
