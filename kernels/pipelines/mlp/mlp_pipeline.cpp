// The SwiGLU MLP out = down(silu(x @ gate^T) * (x @ up^T)), the lesson's main example: its
// registry entry. Kernels and traffic come from the traffic model (mlp_traffic.h), the inputs
// and the check from mlp_host_data.h and mlp_reference.h; the code from mlp_executions_*.cpp.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "pipelines/families.h"
#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/mlp/mlp_reference.h"
#include "pipelines/mlp/mlp_tiles.h"
#include "pipelines/mlp/mlp_traffic.h"
#include "platform/parallel.h"

namespace fusescope {
namespace mlp {
namespace {

constexpr std::string_view kTileNames[] = {"block_m", "block_n", "block_h", "block_i"};
// The production fusion's prefill (gate_up) kernel's tiles.
constexpr std::string_view kProductionTileNames[] = {"tile_m", "tile_i"};
// Rows compared with the double reference; every row when M is at most this.
constexpr std::int64_t kReferenceRows = 8;
// The copy roofline copies at least this much, so that it measures memory, not the cache.
constexpr std::uint64_t kMinimumRooflineBytes = std::uint64_t{256} << 20;

std::string scratchName(MlpVariant variant) {
    return variant == MlpVariant::Production ? "h" : "g_u_h";
}

std::string bufferNameIn(MlpVariant variant, MlpBuffer buffer) {
    switch (buffer) {
        case MlpBuffer::X:
            return "x";
        case MlpBuffer::Gate:
        case MlpBuffer::Up:
            return "gate_up";
        case MlpBuffer::Down:
            return "down";
        case MlpBuffer::G:
        case MlpBuffer::U:
        case MlpBuffer::H:
            return scratchName(variant);
        case MlpBuffer::Out:
            return "out";
    }
    return "out";
}

std::vector<std::string> argsOf(MlpVariant variant) {
    if (scratchBytes(variant, {1, 1, 1}, MlpDtype::Float32) == 0)
        return {"x", "gate_up", "down", "out"};
    return {"x", "gate_up", "down", scratchName(variant), "out"};
}

KernelPlan planOf(MlpVariant variant) {
    return [variant](const Problem& problem) {
        std::vector<KernelSpec> kernels;
        for (const KernelTraffic& traffic :
             mlpTraffic(variant, shapeOf(problem), mlpDtypeOf(problem), tilesOf(problem),
                        productionTilesOf(problem))) {
            KernelSpec kernel;
            kernel.name = traffic.name;
            kernel.execution = std::string(kMlpExecution);
            kernel.args = argsOf(variant);
            kernel.traffic.flops = traffic.flops;
            for (const auto& entry : traffic.buffers) {
                const std::string name = bufferNameIn(variant, entry.buffer);
                auto found =
                    std::find_if(kernel.traffic.buffers.begin(), kernel.traffic.buffers.end(),
                                 [&](const auto& b) { return b.buffer == name; });
                if (found == kernel.traffic.buffers.end())
                    found = kernel.traffic.buffers.insert(found, {name, 0, 0});
                found->bytesRead += entry.bytesRead;
                found->bytesWritten += entry.bytesWritten;
            }
            kernels.push_back(std::move(kernel));
        }
        return kernels;
    };
}

std::vector<BufferSpec> buffersOf(MlpVariant variant) {
    std::vector<BufferSpec> buffers = {{"x", BufferRole::Input, {"M", "H"}},
                                       {"gate_up", BufferRole::Input, {"I", "H"}, 2},
                                       {"down", BufferRole::Input, {"H", "I"}}};
    if (variant == MlpVariant::Production)
        buffers.push_back({"h", BufferRole::Scratch, {"M", "I"}});
    else if (variant != MlpVariant::LessonFused)
        buffers.push_back({"g_u_h", BufferRole::Scratch, {"M", "I"}, 3});
    buffers.push_back({"out", BufferRole::Output, {"M", "H"}});
    return buffers;
}

HostMatrix matrixFrom(const HostBytes& bytes, MlpDtype dtype, std::int64_t rows,
                      std::int64_t cols) {
    HostMatrix matrix(dtype, rows, cols);
    std::memcpy(matrix.data(), bytes.data(), std::min(bytes.size(), matrix.bytes()));
    return matrix;
}

HostBuffers makeInputs(const Problem& problem, const std::vector<const BufferSpec*>&,
                       std::uint32_t seed, const CancelToken& cancel) {
    const MlpShape s = shapeOf(problem);
    MlpHostInputs inputs =
        makeRandomInputs(s, mlpDtypeOf(problem), seed, hardwareThreads(), cancel);
    HostBuffers buffers;
    for (const auto& [name, matrix] : {std::pair<const char*, HostMatrix*>{"x", &inputs.x},
                                       {"gate_up", &inputs.gateUp},
                                       {"down", &inputs.down}}) {
        buffers.names.emplace_back(name);
        const auto* data = static_cast<const unsigned char*>(matrix->data());
        buffers.values.emplace_back(data, data + matrix->bytes());
    }
    return buffers;
}

CheckResult checkOutput(const Problem& problem, const HostBuffers& host, const void* output,
                        const CancelToken& cancel) {
    const MlpShape s = shapeOf(problem);
    const MlpDtype dtype = mlpDtypeOf(problem);
    const MlpHostInputs inputs{matrixFrom(*host.find("x"), dtype, s.M, s.H),
                               matrixFrom(*host.find("gate_up"), dtype, 2 * s.I, s.H),
                               matrixFrom(*host.find("down"), dtype, s.H, s.I)};
    HostMatrix out(dtype, s.M, s.H);
    std::memcpy(out.data(), output, out.bytes());
    const std::vector<std::int64_t> rows = referenceRows(s.M, kReferenceRows);
    const Comparison comparison =
        compareRows(out, rows, referenceOutput(s, inputs, rows, hardwareThreads(), cancel));
    CheckResult result;
    result.measure = "relative Frobenius error over " + std::to_string(rows.size()) + " of " +
                     std::to_string(s.M) + " rows";
    result.error = comparison.relativeError;
    result.tolerance = toleranceFor(dtype);
    result.unwrittenElements = out.countNaN(hardwareThreads());
    result.comparedElements = rows.size() * static_cast<std::uint64_t>(s.H);
    result.ok = result.unwrittenElements == 0 && comparison.passes(result.tolerance);
    return result;
}

TuningSpec tile(std::string_view name, std::string title, int defaultValue) {
    TuningSpec spec;
    spec.name = std::string(name);
    spec.title = std::move(title);
    spec.help = "a tile size of the lesson's fused kernel";
    spec.allowed = {16, 32, 64, 128};
    spec.defaultValue = defaultValue;
    spec.variant = std::string(variantName(MlpVariant::LessonFused));
    return spec;
}

template <std::size_t N>
TuningSpec productionTile(std::string_view name, std::string title,
                          const std::array<int, N>& allowed, int defaultValue,
                          int valueBeforeDeclared) {
    TuningSpec spec;
    spec.name = std::string(name);
    spec.title = std::move(title);
    spec.help = "a tile size of the production fusion's gate_up kernel (prefill sizes)";
    spec.allowed.assign(allowed.begin(), allowed.end());
    spec.defaultValue = defaultValue;
    spec.valueBeforeDeclared = valueBeforeDeclared;
    spec.variant = std::string(variantName(MlpVariant::Production));
    // At decode sizes the fusion runs weight-streaming GEMV kernels, which take no tiles.
    spec.usedFor = [](const Problem& problem) {
        return static_cast<std::int64_t>(problem.dimension("M")) > kDecodeMaxRows;
    };
    return spec;
}

// One variant's declaration: its names and words, its buffers and its kernel plan.
VariantSpec variantSpec(MlpVariant variant, std::string title, std::string description,
                        bool fused) {
    VariantSpec spec;
    spec.name = std::string(variantName(variant));
    spec.title = std::move(title);
    spec.description = std::move(description);
    spec.fused = fused;
    spec.buffers = buffersOf(variant);
    spec.plan = planOf(variant);
    return spec;
}

// Every output-column tile (BLOCK_N columns of H) of the lesson's kernel computes its own g and
// u over all of I.
std::string lessonRecomputation(const Problem& problem) {
    const LessonTiles tiles = tilesOf(problem);
    if (tiles.blockN <= 0) return {};
    const std::int64_t outputTiles = ceilDiv(shapeOf(problem).H, tiles.blockN);
    if (outputTiles <= 1) return {};
    return "g and u for each of " + std::to_string(outputTiles) + " output tiles";
}

PresetSpec preset(std::string name, std::string title, std::uint64_t m, std::uint64_t h,
                  std::uint64_t i) {
    return {std::move(name), std::move(title), {{"M", m}, {"H", h}, {"I", i}}, std::nullopt};
}

// The production fusion's kernels beside the kernels of the variants that do the same work
// apart: its gate_up kernel (a GEMM at prefill sizes, a GEMV at decode sizes) does the gate and
// up GEMMs and SiLU*up, its down kernel the down GEMM.
std::vector<VariantCounterparts> productionCounterparts() {
    const std::vector<std::string> apart = {"gemm_gate", "gemm_up", "silu", "multiply"};
    const std::vector<std::string> merged = {"gemm_gate_up", "silu_mul"};
    const auto pairs = [](const std::vector<std::string>& gateUp) {
        return std::vector<KernelCounterparts>{{"gemm_gate_up_silu", gateUp},
                                               {"gemv_gate_up_silu", gateUp},
                                               {"gemm_down", {"gemm_down"}},
                                               {"gemv_down", {"gemm_down"}}};
    };
    return {{std::string(variantName(MlpVariant::MergedGateUp)), pairs(merged)},
            {std::string(variantName(MlpVariant::Unfused)), pairs(apart)}};
}

}  // namespace

MlpShape shapeOf(const Problem& problem) {
    return {static_cast<std::int64_t>(problem.dimension("M")),
            static_cast<std::int64_t>(problem.dimension("H")),
            static_cast<std::int64_t>(problem.dimension("I"))};
}

MlpDtype mlpDtypeOf(const Problem& problem) {
    switch (problem.dtype) {
        case DType::Bfloat16:
            return MlpDtype::Bfloat16;
        case DType::Tf32:
            return MlpDtype::Tf32;
        case DType::Float32:
            break;
    }
    return MlpDtype::Float32;
}

LessonTiles tilesOf(const Problem& problem) {
    return {problem.tuningValue(kTileNames[0]), problem.tuningValue(kTileNames[1]),
            problem.tuningValue(kTileNames[2]), problem.tuningValue(kTileNames[3])};
}

production::Tiles productionTilesOf(const Problem& problem) {
    // A problem built without these tunings has the default tiles (recordings made before they
    // were declared are read with the tiles of that time: withRecordedTunings).
    const int m = problem.tuningValue(kProductionTileNames[0]);
    const int i = problem.tuningValue(kProductionTileNames[1]);
    return {m > 0 ? m : production::kTileM, i > 0 ? i : production::kTileI};
}

Result<MlpCallBuffers> mlpCallBuffers(const KernelCall& call) {
    const std::optional<MlpVariant> variant = variantNamed(call.variant);
    if (!variant) return Status(ErrorCode::InvalidArgument, "no MLP variant " + call.variant);
    const auto& b = call.buffers;
    if (b.size() != 4 && b.size() != 5)
        return Status(ErrorCode::InvalidArgument,
                      "an MLP kernel takes x, gate_up, down, [intermediates,] out");
    return MlpCallBuffers{*variant, b[0], b[1], b[2], b.size() == 5 ? b[3] : nullptr, b.back()};
}

std::optional<MlpVariant> variantNamed(std::string_view name) {
    for (MlpVariant variant : kAllVariants)
        if (variantName(variant) == name) return variant;
    return std::nullopt;
}

}  // namespace mlp

PipelineSpec makeMlpPipeline() {
    using namespace mlp;
    PipelineSpec p;
    p.name = "mlp";
    p.title = "SwiGLU MLP";
    p.formula = "out = down(silu(x @ gate^T) * (x @ up^T))";
    p.description =
        "The lesson's main example: a Transformer MLP block. A framework runs it as five kernels "
        "with g, u and h through HBM; the lesson fuses it into one tiled kernel, which re-reads "
        "the gate and up weights for every output tile; a production fusion reads every weight "
        "once.";
    // The buffer the fused variants never allocate: g, u and h stay on chip in the lesson's
    // kernel; the production fusion keeps g and u on chip and writes only h.
    p.intermediate = "g_u_h";
    p.leanestVariant = std::string(variantName(MlpVariant::Production));
    p.dimensions = {{"M", "tokens (rows of x)", 64, 1, std::uint64_t{1} << 20},
                    {"H", "hidden size", 1024, 1, std::uint64_t{1} << 17},
                    {"I", "intermediate size", 2816, 1, std::uint64_t{1} << 18}};
    p.dtypes = {DType::Bfloat16, DType::Float32, DType::Tf32};
    p.tunings = {tile(kTileNames[0], "BLOCK_M", kLessonDefaultTiles.blockM),
                 tile(kTileNames[1], "BLOCK_N", kLessonDefaultTiles.blockN),
                 tile(kTileNames[2], "BLOCK_H", kLessonDefaultTiles.blockH),
                 tile(kTileNames[3], "BLOCK_I", kLessonDefaultTiles.blockI),
                 productionTile(kProductionTileNames[0], "TILE_M", production::kAllowedTileM,
                                production::kTileM, production::kTilesBeforeTunings.tileM),
                 productionTile(kProductionTileNames[1], "TILE_I", production::kAllowedTileI,
                                production::kTileI, production::kTilesBeforeTunings.tileI)};
    p.presets = {
        preset("quick", "64 tokens, classroom sizes (quick on a CPU)", 64, 1024, 2816),
        preset("classroom", "classroom: M=512, H=1024, I=2816", 512, 1024, 2816),
        preset("decode-1", "Llama-3-8B decode, 1 token", 1, 4096, 14336),
        preset("decode-4", "Llama-3-8B decode, 4 tokens", 4, 4096, 14336),
        preset("decode-8", "Llama-3-8B decode, 8 tokens", 8, 4096, 14336),
        preset("decode-16", "Llama-3-8B decode, 16 tokens", 16, 4096, 14336),
        preset("prefill-512", "Llama-3-8B prefill, 512 tokens", 512, 4096, 14336),
        preset("prefill-4096", "Llama-3-8B prefill, 4096 tokens", 4096, 4096, 14336),
        preset("odd", "no dimension a multiple of a tile: M=3, H=1000, I=2750", 3, 1000, 2750),
    };
    p.sizeDimension = "M";
    p.countsPasses = false;

    p.variants = {
        variantSpec(
            MlpVariant::Unfused, "Unfused (5 kernels, framework style)",
            "Three GEMMs through cuBLAS plus a SiLU and a multiply kernel: g, u and h (each "
            "M x I) are written to memory and read back.",
            false),
        variantSpec(MlpVariant::LessonFused, "Lesson's fused kernel (1 launch)",
                    "The lesson's Triton kernel ported to CUDA: one tiled kernel; g, u and h stay "
                    "on chip, but every output-column tile recomputes g and u, re-reading gate and "
                    "up each time.",
                    true),
        variantSpec(MlpVariant::Production, "Production fusion (2 kernels)",
                    "gate and up in one pass with SiLU*up in its epilogue (g and u never reach "
                    "memory), then down; at decode sizes weight-streaming kernels over every SM "
                    "read each weight once.",
                    true),
        variantSpec(MlpVariant::MergedGateUp, "Merged gate_up (3 kernels, serving style)",
                    "One cuBLAS GEMM against gate and up stacked, a fused SiLU*mul kernel, then "
                    "down: the 3-kernel path serving engines use.",
                    false),
    };
    for (VariantSpec& variant : p.variants) {
        if (variant.fused) variant.baseline = std::string(variantName(MlpVariant::Unfused));
        if (variant.name == variantName(MlpVariant::LessonFused)) {
            variant.recomputation = lessonRecomputation;
            variant.tiles = lessonVariantTiles();
        }
        if (variant.name == variantName(MlpVariant::Production)) {
            variant.counterparts = productionCounterparts();
            variant.tiles = productionVariantTiles();
        }
    }
    p.makeInputs = makeInputs;
    p.check = checkOutput;
    p.rooflineBytes = [](const Problem& problem) {
        const MlpShape s = shapeOf(problem);
        const std::uint64_t weights = 3 * static_cast<std::uint64_t>(s.H) *
                                      static_cast<std::uint64_t>(s.I) * dtypeBytes(problem.dtype);
        return std::max(weights, kMinimumRooflineBytes);
    };
    p.computeRoof = [](const Problem& problem) {
        // Large enough to run at the tensor (or CUDA) cores' full rate for milliseconds.
        const std::uint64_t n = problem.dtype == DType::Float32 ? 4096 : 8192;
        ComputeRoofSpec roof;
        roof.execution = std::string(kMlpComputeRoofExecution);
        roof.problem.dimensions = {{"M", n}, {"H", n}, {"I", n}};
        roof.problem.dtype = problem.dtype;
        roof.bufferBytes.assign(3, n * n * dtypeBytes(problem.dtype));
        roof.flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
        roof.description = "cuBLAS " + std::string(dtypeTitle(problem.dtype)) + " GEMM " +
                           std::to_string(n) + "^3 (float32 accumulation" +
                           (problem.dtype == DType::Tf32 ? ")" : ", no TF32)");
        return std::optional<ComputeRoofSpec>(roof);
    };
    return p;
}

}  // namespace fusescope
