# The CUDA backend (owned by the CUDA backend work; see runtime/cuda_backend.cpp).
target_sources(fusescope_kernels PRIVATE runtime/cuda_unavailable.cpp)
