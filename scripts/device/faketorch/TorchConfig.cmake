# A minimal stand-in for a pip wheel's TorchConfig.cmake, used by scripts/device/cuda-check.sh
# only when the wheel's own config fails to configure (it looks for the CUDA toolkit, cuDNN and
# NVTX, none of which pincer's sources include). Defines the imported target `torch` from the
# wheel's include/ and lib/ folders. Inputs (cache or environment): PINCER_TORCH_ROOT (the torch
# package folder), PINCER_TORCH_ABI (0 or 1: torch._C._GLIBCXX_USE_CXX11_ABI),
# PINCER_TORCH_VERSION.
foreach(_var PINCER_TORCH_ROOT PINCER_TORCH_ABI PINCER_TORCH_VERSION)
  if(NOT DEFINED ${_var})
    set(${_var} "$ENV{${_var}}")
  endif()
endforeach()
set(_root "${PINCER_TORCH_ROOT}")
if(NOT EXISTS "${_root}/lib/libtorch_cpu.so" OR NOT EXISTS "${_root}/include/torch")
  set(Torch_FOUND FALSE)
  message(WARNING "faketorch: no torch libraries or headers under '${_root}'")
  return()
endif()
set(Torch_VERSION "${PINCER_TORCH_VERSION}")
set(TORCH_INCLUDE_DIRS ${_root}/include ${_root}/include/torch/csrc/api/include)
add_library(torch SHARED IMPORTED)
# libtorch_cuda and libc10_cuda register the CUDA backend when loaded: keep them even though no
# symbol of theirs is used (Ubuntu's linker drops unused libraries by default).
set(_cuda_libs "")
foreach(_lib torch_cuda c10_cuda)
  if(EXISTS "${_root}/lib/lib${_lib}.so")
    string(APPEND _cuda_libs ",${_root}/lib/lib${_lib}.so")
  endif()
endforeach()
set(_links "${_root}/lib/libtorch_cpu.so;${_root}/lib/libc10.so;-Wl,-rpath,${_root}/lib")
if(_cuda_libs)
  list(PREPEND _links "-Wl,--no-as-needed${_cuda_libs},--as-needed")
endif()
set_target_properties(
  torch
  PROPERTIES IMPORTED_LOCATION "${_root}/lib/libtorch.so"
             INTERFACE_INCLUDE_DIRECTORIES "${TORCH_INCLUDE_DIRS}"
             INTERFACE_COMPILE_DEFINITIONS
             "USE_DISTRIBUTED;USE_C10D_GLOO;_GLIBCXX_USE_CXX11_ABI=${PINCER_TORCH_ABI}"
             INTERFACE_LINK_LIBRARIES "${_links}")
set(TORCH_LIBRARIES torch)
set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=${PINCER_TORCH_ABI}")
set(Torch_FOUND TRUE)
message(STATUS "faketorch: torch ${Torch_VERSION} from ${_root} (cuda libs:${_cuda_libs})")
