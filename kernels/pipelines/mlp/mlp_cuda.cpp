// The MLP variants on the GPU: which kernels each launches, on which buffers, in NVTX ranges
// named as the traffic model names them.
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pipelines/mlp/mlp_cuda.h"
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"
#include "pipelines/mlp/mlp_production_tiled.h"

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

struct Step {
    const char* kernel;
    std::function<Status()> launch;
};

Status runStep(MlpVariant variant, const Step& step) {
    NvtxRange range(variant, step.kernel);
    return step.launch();
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

// The lesson kernel compiled at run time (NVRTC) for these tiles in tf32, which has no
// precompiled code; compiled once per tiles and kept for the process.
Status launchLessonCompiledAtRunTime(const LessonTiles& tiles, const MlpShape& s, const Views& v,
                                     cudaStream_t stream) {
    Result<const LessonTiledKernel*> kernel = lessonTiledKernel(tiles, MlpDtype::Tf32);
    if (!kernel) return kernel.status();
    return launchLessonTiled(**kernel, tiles, s, v.x, v.gate, v.up, v.down, v.out, stream);
}

// out = h down^T through cuBLAS: the last step of every variant but the lesson's.
Step downGemm(MlpCudaContext& c, const MlpShape& s, MlpDtype t, const Views& v) {
    return {"gemm_down", [&c, s, t, v] {
                return gemmRowMajorABt(c, t, v.h, s.I, v.down, s.I, v.out, s.H, s.M, s.H, s.I);
            }};
}

// The variant's launches in order, as the traffic model lists its kernels. The launches capture
// copies of everything but the context, which outlives them.
std::vector<Step> stepsOf(MlpCudaContext& c, MlpVariant variant, const MlpShape& s, MlpDtype t,
                          const Views& v, const LessonTiles& tiles) {
    auto* stream = static_cast<cudaStream_t>(c.stream());
    const std::int64_t mi = s.M * s.I;
    switch (variant) {
        case MlpVariant::Unfused:
            return {{"gemm_gate",
                     [&c, s, t, v] {
                         return gemmRowMajorABt(c, t, v.x, s.H, v.gate, s.H, v.g, s.I, s.M, s.I,
                                                s.H);
                     }},
                    {"gemm_up",
                     [&c, s, t, v] {
                         return gemmRowMajorABt(c, t, v.x, s.H, v.up, s.H, v.u, s.I, s.M, s.I, s.H);
                     }},
                    {"silu", [=] { return launchSiluInPlace(t, v.g, mi, stream); }},
                    {"multiply", [=] { return launchMultiply(t, v.g, v.u, v.h, mi, stream); }},
                    downGemm(c, s, t, v)};
        case MlpVariant::LessonFused:
            if (t == MlpDtype::Tf32)
                return {{"swiglu_mlp_lesson",
                         [=] { return launchLessonCompiledAtRunTime(tiles, s, v, stream); }}};
            return {{"swiglu_mlp_lesson", [=] {
                         return launchLessonFused(t, tiles, s, v.x, v.gate, v.up, v.down, v.out,
                                                  stream);
                     }}};
        case MlpVariant::Production:
            if (s.M <= kDecodeMaxRows)
                return {
                    {"gemv_gate_up_silu",
                     [=] { return launchGemvGateUpSilu(t, s, v.x, v.gate, v.up, v.h, stream); }},
                    {"gemv_down",
                     [=] { return launchGemvDown(t, s, v.h, v.down, v.out, stream); }}};
            return {{"gemm_gate_up_silu",
                     [=] { return launchGateUpSilu(t, s, v.x, v.gate, v.up, v.h, stream); }},
                    downGemm(c, s, t, v)};
        case MlpVariant::MergedGateUp:
            // One product against the 2I x H gate_up matrix: row m of g holds g's I values, then
            // u's.
            return {{"gemm_gate_up",
                     [&c, s, t, v] {
                         return gemmRowMajorABt(c, t, v.x, s.H, v.gate, s.H, v.g, 2 * s.I, s.M,
                                                2 * s.I, s.H);
                     }},
                    {"silu_mul", [=] { return launchSiluMulRows(t, v.g, v.h, s.M, s.I, stream); }},
                    downGemm(c, s, t, v)};
    }
    return {};
}

}  // namespace

Status checkCudaProblem(MlpVariant variant, const MlpShape& s, MlpDtype dtype,
                        const LessonTiles& tiles) {
    if (s.M <= 0 || s.H <= 0 || s.I <= 0)
        return {ErrorCode::InvalidArgument, "M, H and I must be positive"};
    if (variant == MlpVariant::Production)
        if (std::optional<std::string> refusal = productionDtypeRefusal(dtype))
            return {ErrorCode::InvalidArgument, *refusal};
    if (2 * s.I > INT32_MAX || s.H > INT32_MAX || s.M > INT32_MAX)
        return {ErrorCode::InvalidArgument, "dimensions beyond 2^31 are not supported by cuBLAS"};
    if (variant == MlpVariant::LessonFused) {
        // tf32 compiles at run time for any allowed tiles (see stepsOf).
        if (dtype != MlpDtype::Tf32 && !lessonTilesCompiled(tiles, dtype))
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
    for (const Step& step :
         stepsOf(context, variant, shape, dtype, viewsOf(variant, shape, dtype, buffers), tiles))
        if (Status s = runStep(variant, step); !s) return s;
    return Status::ok();
}

Status runMlpCudaKernel(MlpCudaContext& context, MlpVariant variant, const MlpShape& shape,
                        MlpDtype dtype, const MlpDeviceBuffers& buffers, const LessonTiles& tiles,
                        std::size_t kernelIndex) {
    if (Status s = checkCudaProblem(variant, shape, dtype, tiles); !s) return s;
    const std::vector<Step> steps =
        stepsOf(context, variant, shape, dtype, viewsOf(variant, shape, dtype, buffers), tiles);
    if (kernelIndex >= steps.size())
        return {ErrorCode::InvalidArgument, "the " + std::string(variantName(variant)) +
                                                " variant has " + std::to_string(steps.size()) +
                                                " kernels, not " + std::to_string(kernelIndex + 1)};
    return runStep(variant, steps[kernelIndex]);
}

}  // namespace fusescope::mlp
