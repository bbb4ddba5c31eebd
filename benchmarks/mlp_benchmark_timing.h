#pragma once
// Timing for the MLP benchmark: CUDA events around each repeat on the MLP context's stream (all
// repeats enqueued back to back, then one wait), the median after warm-ups; and the two roofs
// measured in the same process (a device-to-device copy, a large bfloat16 cuBLAS GEMM).
#include <functional>

#include "core/status.h"
#include "pipelines/mlp/mlp_cuda.h"

namespace fusescope::mlp::bench {

struct Timing {
    double medianUs = 0;
    double minUs = 0;
    int repeats = 0;
};

// `enqueue` puts one repeat's work on the context's stream.
Result<Timing> timeMedian(MlpCudaContext& context, int warmups, int repeats,
                          const std::function<Status()>& enqueue);

// Copy bandwidth in GB/s, counting bytes read plus bytes written.
Result<double> copyRoofGBs(MlpCudaContext& context, std::size_t bytes, int repeats);

// bf16 GEMM rate in TFLOP/s on random data (n x n x n).
Result<double> gemmRoofTflops(MlpCudaContext& context, std::int64_t n, int repeats);

}  // namespace fusescope::mlp::bench
