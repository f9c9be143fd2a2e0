# Precompiled torch headers. Parsing <torch/torch.h> is a large part of what a file that
# includes it costs to compile (about 27 of train/distributed.cpp's 73 CPU seconds under ASan);
# eleven files of nn/, train/, cli/torch/ and tests/train/ include it. pincer_torch_pch gives them
# one precompiled copy.
#
#   pincer_torch_pch(TARGET)                    TARGET builds the precompiled header itself
#   pincer_torch_pch(TARGET REUSE_FROM OTHER)   TARGET uses OTHER's (the same compile flags:
#                                               gcc refuses a header built with other code-model
#                                               flags, e.g. -fPIC against an executable's -fPIE)
#
# Only TARGET's sources that include torch (directly or through nn/network.h or
# nn/checked_archive.h) use it; the others are marked SKIP_PRECOMPILE_HEADERS, so they stay
# torch-free and keep their own includes honest. The scan runs at configure time: a file that
# starts including torch later compiles without the header until cmake next runs.
# -DPINCER_TORCH_PCH=OFF turns it off. ccache caches these compiles only with
# sloppiness=pch_defines,time_macros (the top CMakeLists.txt sets it for its launcher).
option(PINCER_TORCH_PCH "Precompile LibTorch's headers for the files that include them" ON)

function(pincer_torch_pch target)
  cmake_parse_arguments(arg "" "REUSE_FROM" "" ${ARGN})
  if(NOT PINCER_TORCH_PCH)
    return()
  endif()
  # Set here, not beside the option: the callers are in other folders' scopes.
  set(headers <torch/torch.h> <ATen/autocast_mode.h>)
  set(torch_include "^#include [<\"](torch/|ATen/|c10/|nn/network\\.h|nn/checked_archive\\.h)")
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  foreach(source ${sources})
    if(source MATCHES "^\\$<" OR NOT source MATCHES "\\.(cpp|cc)$")
      continue()  # $<TARGET_OBJECTS:...>, headers
    endif()
    get_filename_component(path ${source} ABSOLUTE BASE_DIR ${source_dir})
    file(STRINGS ${path} torch_includes REGEX "${torch_include}")
    if(NOT torch_includes)
      set_source_files_properties(${path} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  if(arg_REUSE_FROM)
    target_precompile_headers(${target} REUSE_FROM ${arg_REUSE_FROM})
  else()
    target_precompile_headers(${target} PRIVATE ${headers})
  endif()
endfunction()
