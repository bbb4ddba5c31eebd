#pragma once
// Libraries of the CUDA toolkit that the program loads at run time (cuBLAS, NVRTC) instead of
// linking them: a machine without the toolkit still starts, runs the CPU backend and says which
// GPU features are missing, and the portable bundle does not carry hundreds of megabytes.
#include <string>
#include <vector>

namespace fusescope {

// Where to look for `soname` (e.g. "libcublas.so.13"): the loader's own search first, then the
// toolkit under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda and /usr/local/cuda-13.0. When the
// environment variable `overrideVariable` is set, its value is the only candidate (tests use a
// path that does not exist to play a machine without the library).
std::vector<std::string> toolkitLibraryCandidates(const std::string& soname,
                                                  const char* overrideVariable);

}  // namespace fusescope
