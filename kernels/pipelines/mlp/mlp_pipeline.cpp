// The SwiGLU MLP out = down(silu(x @ gate^T) * (x @ up^T)), the lesson's main example: its
// registry entry. Each variant declares here, once, the kernels it launches for a problem, in
// order: each kernel's traffic and FLOPs, and whether it can run the problem on a backend. The
// kernels' code is found by their execution keys (mlp_executions_*.cpp); the inputs and the check
// come from mlp_host_data.h and mlp_reference.h.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "pipelines/families.h"
#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/mlp/mlp_production_tiled.h"
#include "pipelines/mlp/mlp_reference.h"
#include "pipelines/mlp/mlp_tiles.h"
#include "pipelines/registry.h"
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
// The largest y extent of a CUDA grid.
constexpr std::int64_t kMaxGridY = 65535;

// FLOPs counted per element of the elementwise stages: silu(g) = g / (1 + exp(-g)) as 4
// (negate+exp, add, divide) and the product with u as 1.
constexpr double kSiluFlops = 4;
constexpr double kMulFlops = 1;

// The names of the two scratch layouts: g, u and h one after the other, or h alone.
constexpr std::string_view kScratchGuh = "g_u_h";
constexpr std::string_view kScratchH = "h";

// What the traffic of a problem is made of.
struct Sizes {
    std::uint64_t x, weight, mi, out;  // bytes of x, of one weight matrix, of an M x I, of out
    double gemm;                       // FLOPs of one of the three products
    double miElements;
};

Sizes sizesOf(const Problem& problem) {
    const MlpShape s = shapeOf(problem);
    const auto e = static_cast<std::uint64_t>(dtypeBytes(problem.dtype));
    const auto M = static_cast<std::uint64_t>(s.M), H = static_cast<std::uint64_t>(s.H),
               I = static_cast<std::uint64_t>(s.I);
    return {M * H * e,
            I * H * e,
            M * I * e,
            M * H * e,
            2.0 * double(M) * double(H) * double(I),
            double(M) * double(I)};
}

std::vector<std::string> argsWith(std::string_view scratch) {
    if (scratch.empty()) return {"x", "gate_up", "down", "out"};
    return {"x", "gate_up", "down", std::string(scratch), "out"};
}

std::vector<BufferSpec> buffersWith(std::string_view scratch, std::uint64_t scratchCopies) {
    std::vector<BufferSpec> buffers = {{"x", BufferRole::Input, {"M", "H"}},
                                       {"gate_up", BufferRole::Input, {"I", "H"}, 2},
                                       {"down", BufferRole::Input, {"H", "I"}}};
    if (!scratch.empty())
        buffers.push_back({std::string(scratch), BufferRole::Scratch, {"M", "I"}, scratchCopies});
    buffers.push_back({"out", BufferRole::Output, {"M", "H"}});
    return buffers;
}

// One kernel of a variant: its name, its traffic buffer by buffer (a buffer read several times
// charged every time) and the FLOPs it executes, recomputation included.
KernelSpec kernelOf(std::string_view name, std::string_view scratch,
                    std::vector<BufferTraffic> traffic, double flops) {
    KernelSpec kernel;
    kernel.name = std::string(name);
    kernel.execution = executionKey(name);
    kernel.args = argsWith(scratch);
    kernel.traffic.buffers = std::move(traffic);
    kernel.traffic.flops = flops;
    return kernel;
}

// out = h down^T as a library runs it, at its compulsory traffic: the last kernel of every
// variant but the lesson's.
KernelSpec gemmDown(const Sizes& z, std::string_view scratch) {
    return kernelOf(kernel::kGemmDown, scratch,
                    {{std::string(scratch), z.mi, 0}, {"down", z.weight, 0}, {"out", 0, z.out}},
                    z.gemm);
}

// A refusal on the GPU alone: the CPU runs every problem the limits allow.
std::function<Status(const Problem&, BackendKind)> onCuda(
    std::function<Status(const Problem&)> check) {
    return [check = std::move(check)](const Problem& problem, BackendKind backend) {
        return backend == BackendKind::Cuda ? check(problem) : Status::ok();
    };
}

Status refusedIf(const std::optional<std::string>& refusal) {
    return refusal ? Status(ErrorCode::InvalidArgument, *refusal) : Status::ok();
}

VariantSpec declaredVariant(std::string_view name, std::string title, std::string description,
                            bool fused, std::string_view scratch, std::uint64_t scratchCopies) {
    VariantSpec spec;
    spec.name = std::string(name);
    spec.title = std::move(title);
    spec.description = std::move(description);
    spec.fused = fused;
    spec.buffers = buffersWith(scratch, scratchCopies);
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
    return {{std::string(kMergedVariant), pairs(merged)},
            {std::string(kUnfusedVariant), pairs(apart)}};
}

// Three cuBLAS GEMMs, a SiLU kernel and a multiply kernel: g, u and h through memory.
VariantSpec unfusedVariant() {
    VariantSpec v = declaredVariant(
        kUnfusedVariant, "Unfused (5 kernels, framework style)",
        "Three GEMMs through cuBLAS plus a SiLU and a multiply kernel: g, u and h (each M x I) are "
        "written to memory and read back.",
        false, kScratchGuh, 3);
    v.plan = [](const Problem& problem) {
        const Sizes z = sizesOf(problem);
        const std::string guh(kScratchGuh);
        const auto projection = [&](std::string_view name) {
            return kernelOf(name, kScratchGuh,
                            {{"x", z.x, 0}, {"gate_up", z.weight, 0}, {guh, 0, z.mi}}, z.gemm);
        };
        return std::vector<KernelSpec>{
            projection(kernel::kGemmGate), projection(kernel::kGemmUp),
            // SiLU in place on g, as an activation kernel writing its own output buffer would.
            kernelOf(kernel::kSilu, kScratchGuh, {{guh, z.mi, z.mi}}, kSiluFlops * z.miElements),
            kernelOf(kernel::kMultiply, kScratchGuh, {{guh, 2 * z.mi, z.mi}},
                     kMulFlops * z.miElements),
            gemmDown(z, kScratchGuh)};
    };
    return v;
}

// The lesson's one tiled kernel. Grid: ceil(M/BLOCK_M) x ceil(H/BLOCK_N) blocks. Each block, for
// each of ceil(I/BLOCK_I) chunks, reads its rows of x in full (a fresh window per chunk) and the
// whole chunk of gate and up, so gate and up are read once per output-column tile per M tile,
// and x once per output-column tile per I chunk. Padding beyond the edges is not read.
VariantSpec lessonVariant() {
    VariantSpec v = declaredVariant(
        kLessonVariant, "Lesson's fused kernel (1 launch)",
        "The lesson's Triton kernel ported to CUDA: one tiled kernel; g, u and h stay on chip, but "
        "every output-column tile recomputes g and u, re-reading gate and up each time.",
        true, {}, 0);
    v.plan = [](const Problem& problem) {
        const Sizes z = sizesOf(problem);
        const MlpShape s = shapeOf(problem);
        const LessonTiles t = tilesOf(problem);
        const auto tilesM = static_cast<std::uint64_t>(ceilDiv(s.M, t.blockM));
        const auto tilesN = static_cast<std::uint64_t>(ceilDiv(s.H, t.blockN));
        const auto chunksI = static_cast<std::uint64_t>(ceilDiv(s.I, t.blockI));
        const double flops = 2.0 * z.gemm * double(tilesN) + z.gemm +
                             (kSiluFlops + kMulFlops) * z.miElements * double(tilesN);
        KernelSpec lesson = kernelOf(kernel::kLesson, {},
                                     {{"x", z.x * tilesN * chunksI, 0},
                                      {"gate_up", 2 * z.weight * tilesM * tilesN, 0},
                                      {"down", z.weight * tilesM, 0},
                                      {"out", 0, z.out}},
                                     flops);
        lesson.canImplement = onCuda([](const Problem& p) {
            if (ceilDiv(shapeOf(p).H, tilesOf(p).blockN) > kMaxGridY)
                return Status(ErrorCode::InvalidArgument,
                              "H / BLOCK_N exceeds the grid's 65535 limit");
            return Status::ok();
        });
        return std::vector<KernelSpec>{std::move(lesson)};
    };
    v.recomputation = lessonRecomputation;
    v.tiles = lessonVariantTiles();
    return v;
}

// gate and up in one kernel with SiLU*up in its epilogue, then down. Decode (M <= 16): GEMV
// kernels of decodeRowsPerBlock weight rows a block, each block reading all of x (or h). Prefill:
// a grid of ceil(M/TILE_M) x ceil(I/TILE_I) blocks, each reading its rows of x over all of H and
// its TILE_I rows of gate and up: x is read once per I tile, gate and up once per M tile.
// Padding beyond the edges is not read.
VariantSpec productionVariant() {
    VariantSpec v = declaredVariant(
        kProductionVariant, "Production fusion (2 kernels)",
        "gate and up in one pass with SiLU*up in its epilogue (g and u never reach memory), then "
        "down; at decode sizes weight-streaming kernels over every SM read each weight once.",
        true, kScratchH, 1);
    v.plan = [](const Problem& problem) {
        const Sizes z = sizesOf(problem);
        const MlpShape s = shapeOf(problem);
        const std::string h(kScratchH);
        const double gateUpFlops = 2.0 * z.gemm + (kSiluFlops + kMulFlops) * z.miElements;
        if (s.M <= kDecodeMaxRows) {
            const auto gateUpBlocks = static_cast<std::uint64_t>(
                ceilDiv(s.I, production::decodeRowsPerBlock(problem.dtype, s.M, s.H)));
            const auto downBlocks = static_cast<std::uint64_t>(
                ceilDiv(s.H, production::decodeRowsPerBlock(problem.dtype, s.M, s.I)));
            KernelSpec gateUp =
                kernelOf(kernel::kGemvGateUpSilu, kScratchH,
                         {{"x", z.x * gateUpBlocks, 0}, {"gate_up", 2 * z.weight, 0}, {h, 0, z.mi}},
                         gateUpFlops);
            gateUp.canImplement =
                onCuda([](const Problem& p) { return refusedIf(productionDtypeRefusal(p.dtype)); });
            return std::vector<KernelSpec>{
                std::move(gateUp),
                kernelOf(kernel::kGemvDown, kScratchH,
                         {{h, z.mi * downBlocks, 0}, {"down", z.weight, 0}, {"out", 0, z.out}},
                         z.gemm)};
        }
        const production::Tiles t =
            production::gateUpLaunchTiles(productionTilesOf(problem), problem.dtype, s);
        const auto tilesM = static_cast<std::uint64_t>(ceilDiv(s.M, t.tileM));
        const auto tilesI = static_cast<std::uint64_t>(ceilDiv(s.I, t.tileI));
        KernelSpec gateUp =
            kernelOf(kernel::kGemmGateUpSilu, kScratchH,
                     {{"x", z.x * tilesI, 0}, {"gate_up", 2 * z.weight * tilesM, 0}, {h, 0, z.mi}},
                     gateUpFlops);
        gateUp.canImplement = onCuda([](const Problem& p) {
            const production::Tiles tiles = productionTilesOf(p);
            if (Status refused = refusedIf(productionTilesRefusal(tiles, p.dtype)); !refused)
                return refused;
            if (ceilDiv(shapeOf(p).I, tiles.tileI) > kMaxGridY)
                return Status(ErrorCode::InvalidArgument,
                              "I / TILE_I exceeds the grid's 65535 limit");
            return Status::ok();
        });
        return std::vector<KernelSpec>{std::move(gateUp), gemmDown(z, kScratchH)};
    };
    v.counterparts = productionCounterparts();
    v.tiles = productionVariantTiles();
    return v;
}

// Serving-engine style: one cuBLAS GEMM against gate and up stacked (row m of its output holds
// g's I values, then u's), a fused SiLU*mul kernel, then down.
VariantSpec mergedVariant() {
    VariantSpec v = declaredVariant(
        kMergedVariant, "Merged gate_up (3 kernels, serving style)",
        "One cuBLAS GEMM against gate and up stacked, a fused SiLU*mul kernel, then down: the "
        "3-kernel path serving engines use.",
        false, kScratchGuh, 3);
    v.plan = [](const Problem& problem) {
        const Sizes z = sizesOf(problem);
        const std::string guh(kScratchGuh);
        return std::vector<KernelSpec>{
            kernelOf(kernel::kGemmGateUp, kScratchGuh,
                     {{"x", z.x, 0}, {"gate_up", 2 * z.weight, 0}, {guh, 0, 2 * z.mi}},
                     2.0 * z.gemm),
            kernelOf(kernel::kSiluMul, kScratchGuh, {{guh, 2 * z.mi, z.mi}},
                     (kSiluFlops + kMulFlops) * z.miElements),
            gemmDown(z, kScratchGuh)};
    };
    return v;
}

HostMatrix matrixFrom(const HostBytes& bytes, DType dtype, std::int64_t rows, std::int64_t cols) {
    HostMatrix matrix(dtype, rows, cols);
    std::memcpy(matrix.data(), bytes.data(), std::min(bytes.size(), matrix.bytes()));
    return matrix;
}

HostBuffers makeInputs(const Problem& problem, const std::vector<const BufferSpec*>&,
                       std::uint32_t seed, const CancelToken& cancel) {
    const MlpShape s = shapeOf(problem);
    return hostBuffersOf(makeRandomInputs(s, problem.dtype, seed, hardwareThreads(), cancel));
}

CheckResult checkOutput(const Problem& problem, const HostBuffers& host, const HostBuffers& outputs,
                        const CancelToken& cancel) {
    const void* output = outputs.find("out")->data();
    const MlpShape s = shapeOf(problem);
    const DType dtype = problem.dtype;
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
    spec.variant = std::string(kLessonVariant);
    return spec;
}

template <std::size_t N>
TuningSpec productionTile(std::string_view name, std::string title,
                          const std::array<int, N>& allowed, int defaultValue,
                          int valueBeforeDeclared) {
    TuningSpec spec;
    spec.name = std::string(name);
    spec.title = std::move(title);
    spec.help =
        "a tile size of the production fusion's gate_up kernel (prefill sizes); at the "
        "default 128 x 128 a Hopper GPU runs its TMA and wgmma kernel in bfloat16, at "
        "128 x 112 where 128 x 128 tiles would take more than one wave of " +
        std::to_string(production::kHopperWaveBlocks) + " blocks";
    spec.allowed.assign(allowed.begin(), allowed.end());
    spec.defaultValue = defaultValue;
    spec.valueBeforeDeclared = valueBeforeDeclared;
    spec.variant = std::string(kProductionVariant);
    // At decode sizes the fusion runs weight-streaming GEMV kernels, which take no tiles.
    spec.usedFor = [](const Problem& problem) {
        return static_cast<std::int64_t>(problem.dimension("M")) > kDecodeMaxRows;
    };
    return spec;
}

}  // namespace

MlpShape shapeOf(const Problem& problem) {
    return {static_cast<std::int64_t>(problem.dimension("M")),
            static_cast<std::int64_t>(problem.dimension("H")),
            static_cast<std::int64_t>(problem.dimension("I"))};
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

HostBuffers hostBuffersOf(const MlpHostInputs& inputs) {
    HostBuffers buffers;
    for (const auto& [name, matrix] : {std::pair<const char*, const HostMatrix*>{"x", &inputs.x},
                                       {"gate_up", &inputs.gateUp},
                                       {"down", &inputs.down}}) {
        buffers.names.emplace_back(name);
        const auto* data = static_cast<const unsigned char*>(matrix->data());
        buffers.values.emplace_back(data, data + matrix->bytes());
    }
    return buffers;
}

std::string executionKey(std::string_view kernelName) {
    return std::string(kPipelineName) + "/" + std::string(kernelName);
}

Result<MlpCallBuffers> mlpCallBuffers(const KernelCall& call) {
    const PipelineSpec* pipeline = findPipeline(kPipelineName);
    const VariantSpec* variant = pipeline ? findVariant(*pipeline, call.variant) : nullptr;
    if (!variant) return Status(ErrorCode::InvalidArgument, "no MLP variant " + call.variant);
    const auto& b = call.buffers;
    if (b.size() != 4 && b.size() != 5)
        return Status(ErrorCode::InvalidArgument,
                      "an MLP kernel takes x, gate_up, down, [intermediates,] out");
    const MlpShape s = shapeOf(*call.problem);
    const std::uint64_t e = dtypeBytes(call.problem->dtype);
    const auto mi = static_cast<std::uint64_t>(s.M * s.I) * e;
    MlpCallBuffers buffers;
    buffers.x = b[0];
    buffers.gate = b[1];
    buffers.up =
        static_cast<const unsigned char*>(b[1]) + static_cast<std::uint64_t>(s.I * s.H) * e;
    buffers.down = b[2];
    buffers.out = b.back();
    if (b.size() == 5) {
        const auto scratch =
            std::find_if(variant->buffers.begin(), variant->buffers.end(),
                         [](const BufferSpec& spec) { return spec.role == BufferRole::Scratch; });
        const std::uint64_t copies = scratch == variant->buffers.end() ? 1 : scratch->copies;
        auto* base = static_cast<unsigned char*>(b[3]);
        if (copies >= 3) {
            buffers.g = base;
            buffers.u = base + mi;
        }
        buffers.h = base + (copies - 1) * mi;
    }
    return buffers;
}

}  // namespace mlp

PipelineSpec makeMlpPipeline() {
    using namespace mlp;
    PipelineSpec p;
    p.name = std::string(kPipelineName);
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
    p.leanestVariant = std::string(kProductionVariant);
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

    p.variants = {unfusedVariant(), lessonVariant(), productionVariant(), mergedVariant()};
    // Every fused variant is measured against the framework-style chain of five kernels.
    for (VariantSpec& variant : p.variants)
        if (variant.fused) variant.baseline = p.variants.front().name;
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
