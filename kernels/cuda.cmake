# The CUDA backend, included by kernels/CMakeLists.txt when FUSESCOPE_HAVE_CUDA: the kernels of
# every pipeline family (.cu), the kernel table, the device probe and the Backend on GPU 0, each
# in the library of its layer. Public kernels/ headers stay free of CUDA headers: plain C++
# targets link fusescope_kernels.

target_sources(fusescope_platform PRIVATE platform/cuda_error.cpp)
target_sources(fusescope_pipelines PRIVATE
  pipelines/affine.cu
  pipelines/swiglu.cu
  pipelines/cuda_executions.cpp
  pipelines/cuda_elementwise_execution.cpp
  pipelines/runtime_cuda_execution.cpp
  pipelines/cuda_kernel_resources.cpp
  pipelines/cache_sweep_cuda.cu
)
target_sources(fusescope_runtime PRIVATE
  runtime/cuda_probe.cpp
  runtime/cuda_backend.cpp
  runtime/cuda_start_hold.cu
  runtime/learner_launch_cuda.cpp
)
# The static runtime runs wherever the NVIDIA driver is installed, without a CUDA toolkit.
foreach(library ${fusescope_engine_libraries})
  target_link_libraries(${library} PRIVATE CUDA::cudart_static)
  target_compile_definitions(${library} PRIVATE FUSESCOPE_HAVE_CUDA=1)
endforeach()
target_compile_definitions(fusescope_kernels INTERFACE FUSESCOPE_HAVE_CUDA=1)
# A register spill in these bandwidth-bound kernels is a performance bug: make it a build error.
set_source_files_properties(pipelines/affine.cu pipelines/swiglu.cu PROPERTIES
  COMPILE_OPTIONS "-Xptxas=--warn-on-spills,--warning-as-error")

# The SwiGLU MLP's GPU variants: cuBLAS (linked dynamically: it is large and ships with the
# toolkit) and the MLP's own kernels. NVTX 3 is header-only and loads its injection library with
# dlopen.
set(mlp_cuda_sources
  pipelines/mlp/mlp_elementwise.cu
  pipelines/mlp/mlp_lesson_fused.cu
  pipelines/mlp/mlp_gate_up_silu.cu
  pipelines/mlp/mlp_production_precompiled.cu
  pipelines/mlp/mlp_decode_gemv.cu
  pipelines/mlp/mlp_decode_tensor_gemv.cu
)
target_sources(fusescope_pipelines PRIVATE
  ${mlp_cuda_sources}
  pipelines/mlp/mlp_cuda_context.cpp
  pipelines/mlp/cublas_library.cpp
  pipelines/mlp/mlp_device_problem.cpp
  pipelines/mlp/mlp_executions_cuda.cpp
  pipelines/mlp/mlp_build_timing_cuda.cpp
  pipelines/mlp/mlp_lesson_tiled_cuda.cpp
  pipelines/mlp/mlp_tiled_module_cuda.cpp
  pipelines/mlp/mlp_production_tiled_cuda.cpp
)
# cuBLAS is loaded at run time (pipelines/mlp/cublas_library.cpp): only its headers are needed.
target_include_directories(fusescope_pipelines PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
set_source_files_properties(${mlp_cuda_sources} PROPERTIES
  COMPILE_OPTIONS "-Xptxas=--warn-on-spills,--warning-as-error")
# The production fusion's Hopper gate_up kernel uses TMA and wgmma, which exist only for sm_90a: it
# is built for that architecture alone, whatever CMAKE_CUDA_ARCHITECTURES says, and runs only on
# compute capability 9.0 (other GPUs take the mma.sync kernel).
add_library(fusescope_mlp_hopper OBJECT pipelines/mlp/mlp_gate_up_hopper.cu)
# Position-independent: the asan preset builds fusescope_pipelines as a shared library.
set_target_properties(fusescope_mlp_hopper PROPERTIES CUDA_ARCHITECTURES OFF AUTOMOC OFF
                                                      POSITION_INDEPENDENT_CODE ON)
target_compile_options(fusescope_mlp_hopper PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--generate-code=arch=compute_90a,code=sm_90a
  -Xptxas=--warn-on-spills,--warning-as-error>)
fusescope_layer_root(fusescope_mlp_hopper core platform pipelines)
target_include_directories(fusescope_mlp_hopper PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
target_link_libraries(fusescope_mlp_hopper PRIVATE fusescope_warnings)
target_sources(fusescope_pipelines PRIVATE $<TARGET_OBJECTS:fusescope_mlp_hopper>)
# The MLP's GPU tests and benchmark name this target.
add_library(fusescope_mlp_cuda INTERFACE)
target_link_libraries(fusescope_mlp_cuda INTERFACE fusescope_kernels)
