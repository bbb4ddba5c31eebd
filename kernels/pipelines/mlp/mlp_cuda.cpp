// The MLP variants on the GPU: which kernels each launches, on which buffers, in NVTX ranges
// named as the traffic model names them.
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <string>

#include "pipelines/mlp/mlp_cuda.h"
#include "pipelines/mlp/mlp_launch.h"

namespace fusescope::mlp {
namespace {

class NvtxRange {
  public:
    NvtxRange(MlpVariant variant, const char* kernel) {
        const std::string name = "mlp/" + std::string(variantName(variant)) + "/" + kernel;
        nvtxRangePushA(name.c_str());
    }
    ~NvtxRange() { nvtxRangePop(); }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

// Runs one launch inside its NVTX range; stops the sequence at the first failure.
template <typename Launch>
Status ranged(MlpVariant variant, const char* kernel, Launch launch) {
    NvtxRange range(variant, kernel);
    return launch();
}

struct Views {
    const char* x;
    const char* gate;
    const char* up;
    const char* down;
    char* g;  // M x I (unfused), or M x 2I gate_up output (merged)
    char* u;
    char* h;
    void* out;
};

Views viewsOf(MlpVariant variant, const MlpShape& s, MlpDtype dtype, const MlpDeviceBuffers& b) {
    const auto e = static_cast<std::int64_t>(elementBytes(dtype));
    auto* scratch = static_cast<char*>(b.scratch);
    const std::int64_t mi = s.M * s.I * e;
    const auto* gate = static_cast<const char*>(b.gateUp);
    Views v{static_cast<const char*>(b.x),
            gate,
            gate + s.I * s.H * e,
            static_cast<const char*>(b.down),
            scratch,
            scratch + mi,
            scratch + 2 * mi,
            b.out};
    if (variant == MlpVariant::Production) v.h = scratch;
    return v;
}

Status runUnfused(MlpCudaContext& c, const MlpShape& s, MlpDtype t, const Views& v) {
    constexpr MlpVariant kV = MlpVariant::Unfused;
    auto* stream = static_cast<cudaStream_t>(c.stream());
    const std::int64_t mi = s.M * s.I;
    if (Status st = ranged(
            kV, "gemm_gate",
            [&] { return gemmRowMajorABt(c, t, v.x, s.H, v.gate, s.H, v.g, s.I, s.M, s.I, s.H); });
        !st)
        return st;
    if (Status st = ranged(
            kV, "gemm_up",
            [&] { return gemmRowMajorABt(c, t, v.x, s.H, v.up, s.H, v.u, s.I, s.M, s.I, s.H); });
        !st)
        return st;
    if (Status st = ranged(kV, "silu", [&] { return launchSiluInPlace(t, v.g, mi, stream); }); !st)
        return st;
    if (Status st =
            ranged(kV, "multiply", [&] { return launchMultiply(t, v.g, v.u, v.h, mi, stream); });
        !st)
        return st;
    return ranged(kV, "gemm_down", [&] {
        return gemmRowMajorABt(c, t, v.h, s.I, v.down, s.I, v.out, s.H, s.M, s.H, s.I);
    });
}

Status runProduction(MlpCudaContext& c, const MlpShape& s, MlpDtype t, const Views& v) {
    constexpr MlpVariant kV = MlpVariant::Production;
    auto* stream = static_cast<cudaStream_t>(c.stream());
    if (s.M <= kDecodeMaxRows) {
        if (Status st =
                ranged(kV, "gemv_gate_up_silu",
                       [&] { return launchGemvGateUpSilu(t, s, v.x, v.gate, v.up, v.h, stream); });
            !st)
            return st;
        return ranged(kV, "gemv_down",
                      [&] { return launchGemvDown(t, s, v.h, v.down, v.out, stream); });
    }
    if (Status st = ranged(kV, "gemm_gate_up_silu",
                           [&] { return launchGateUpSilu(t, s, v.x, v.gate, v.up, v.h, stream); });
        !st)
        return st;
    return ranged(kV, "gemm_down", [&] {
        return gemmRowMajorABt(c, t, v.h, s.I, v.down, s.I, v.out, s.H, s.M, s.H, s.I);
    });
}

Status runMerged(MlpCudaContext& c, const MlpShape& s, MlpDtype t, const Views& v) {
    constexpr MlpVariant kV = MlpVariant::MergedGateUp;
    auto* stream = static_cast<cudaStream_t>(c.stream());
    // One product against the 2I x H gate_up matrix: row m of g holds g's I values, then u's.
    if (Status st = ranged(kV, "gemm_gate_up",
                           [&] {
                               return gemmRowMajorABt(c, t, v.x, s.H, v.gate, s.H, v.g, 2 * s.I,
                                                      s.M, 2 * s.I, s.H);
                           });
        !st)
        return st;
    if (Status st = ranged(kV, "silu_mul",
                           [&] { return launchSiluMulRows(t, v.g, v.h, s.M, s.I, stream); });
        !st)
        return st;
    return ranged(kV, "gemm_down", [&] {
        return gemmRowMajorABt(c, t, v.h, s.I, v.down, s.I, v.out, s.H, s.M, s.H, s.I);
    });
}

}  // namespace

std::uint64_t scratchBytes(MlpVariant variant, const MlpShape& shape, MlpDtype dtype) {
    const auto mi = static_cast<std::uint64_t>(shape.M * shape.I) * elementBytes(dtype);
    switch (variant) {
        case MlpVariant::Unfused:
        case MlpVariant::MergedGateUp:
            return 3 * mi;  // g, u, h (merged: g and u interleaved per row as gate_up's output)
        case MlpVariant::Production:
            return mi;  // h
        case MlpVariant::LessonFused:
            return 0;
    }
    return 0;
}

Status checkCudaProblem(MlpVariant variant, const MlpShape& s, MlpDtype, const LessonTiles& tiles) {
    if (s.M <= 0 || s.H <= 0 || s.I <= 0)
        return {ErrorCode::InvalidArgument, "M, H and I must be positive"};
    if (2 * s.I > INT32_MAX || s.H > INT32_MAX || s.M > INT32_MAX)
        return {ErrorCode::InvalidArgument, "dimensions beyond 2^31 are not supported by cuBLAS"};
    if (variant == MlpVariant::LessonFused) {
        if (!lessonTilesCompiled(tiles))
            return {ErrorCode::InvalidArgument,
                    "the lesson kernel is compiled for BLOCK_M=32, BLOCK_N=64, BLOCK_H=64, "
                    "BLOCK_I=64 only"};
        if (ceilDiv(s.H, tiles.blockN) > 65535)
            return {ErrorCode::InvalidArgument, "H / BLOCK_N exceeds the grid's 65535 limit"};
    }
    if (variant == MlpVariant::Production && s.M > kDecodeMaxRows && ceilDiv(s.I, 64) > 65535)
        return {ErrorCode::InvalidArgument, "I too large for the gate_up kernel's grid"};
    return Status::ok();
}

Status runMlpCuda(MlpCudaContext& context, MlpVariant variant, const MlpShape& shape,
                  MlpDtype dtype, const MlpDeviceBuffers& buffers, const LessonTiles& tiles) {
    if (Status s = checkCudaProblem(variant, shape, dtype, tiles); !s) return s;
    const Views v = viewsOf(variant, shape, dtype, buffers);
    switch (variant) {
        case MlpVariant::Unfused:
            return runUnfused(context, shape, dtype, v);
        case MlpVariant::LessonFused:
            return ranged(variant, "swiglu_mlp_lesson", [&] {
                return launchLessonFused(dtype, tiles, shape, v.x, v.gate, v.up, v.down, v.out,
                                         static_cast<cudaStream_t>(context.stream()));
            });
        case MlpVariant::Production:
            return runProduction(context, shape, dtype, v);
        case MlpVariant::MergedGateUp:
            return runMerged(context, shape, dtype, v);
    }
    return {ErrorCode::InvalidArgument, "unknown MLP variant"};
}

}  // namespace fusescope::mlp
