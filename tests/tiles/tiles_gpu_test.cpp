// On a GPU: the lesson kernel compiled at run time by NVRTC for tiles the program has no
// precompiled code for, checked against the double reference on the classroom shape and on one
// that is no multiple of any tile; and the resource report of the loaded kernel. Skips with the
// reason when there is no usable GPU, or no NVRTC.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>

#include "../cuda/cuda_gpu_fixture.h"
#include "pipelines/mlp/mlp_device_problem.h"
#include "pipelines/mlp/mlp_production_precompiled.h"
#include "pipelines/mlp/mlp_production_tiled.h"
#include "pipelines/mlp/mlp_production_tiled_cuda.h"
#include "pipelines/registry.h"
#include "platform/runtime_compiler.h"
#include "runtime/runner.h"
#include "support/mlp_tile_configurations.h"
#include "tiles/tile_model.h"
#include "tiles/tile_sweep.h"

namespace fusescope::tiles {
namespace {

using testsupport::lessonTiles;
using testsupport::productionTiles;

// The tiles and the shape, for the trace of a case that fails.
std::string caseText(const TileConfiguration& c) {
    std::string text = tilesText(c);
    for (const char* dimension : {"M", "H", "I"})
        text +=
            std::string(" ") + dimension + "=" + std::to_string(c.problem.dimensions.at(dimension));
    return text;
}

// A plain run of the lesson kernel alone at this shape, dtype and BLOCK_M/N/H/I, once, unwarmed.
RunRequest lessonRun(std::uint64_t m, std::uint64_t h, std::uint64_t i, DType dtype,
                     std::uint64_t blockM, std::uint64_t blockN, std::uint64_t blockH,
                     std::uint64_t blockI) {
    RunRequest request;
    request.pipeline = "mlp";
    request.variants = {"lesson_fused"};
    request.problem = findPipeline("mlp")->defaultProblem();
    request.problem.dimensions = {{"M", m}, {"H", h}, {"I", i}};
    request.problem.dtype = dtype;
    request.problem.tuning = {
        {"block_m", blockM}, {"block_n", blockN}, {"block_h", blockH}, {"block_i", blockI}};
    request.settings.repeats = 1;
    request.settings.warmup = 0;
    return request;
}

class TilesGpuTest : public testing_support::GpuTest {
  protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        Result<ModuleCompiler*> compiler = runtimeCompiler();
        if (!compiler) GTEST_SKIP() << compiler.status().message();
    }

    // Three timed runs after one warm-up, the cell checked against the reference and every
    // output element written.
    std::optional<TileRunResult> runChecked(const TileConfiguration& c, std::uint32_t seed) {
        RunObserver quiet;
        Result<TileRunResult> result =
            runConfiguration(*backend, c, RunSettings{3, 1, seed}, quiet);
        EXPECT_TRUE(result) << result.status().message();
        if (!result) return std::nullopt;
        const TileCell& cell = result->cell;
        EXPECT_TRUE(cell.checkOk) << "error " << cell.checkError << " > " << cell.checkTolerance;
        EXPECT_EQ(result->run.variants.front().check.unwrittenElements, 0u);
        return std::move(*result);
    }
};

struct Case {
    std::uint64_t m, h, i;
    DType dtype;
    int bm, bn, bh, bi;
};

TEST_F(TilesGpuTest, NonDefaultTilesAreCorrectOnOddAndWholeShapes) {
    const Case cases[] = {
        {3, 1000, 2750, DType::Bfloat16, 16, 64, 32, 128},
        {3, 1000, 2750, DType::Bfloat16, 16, 16, 128, 16},
        {3, 1000, 2750, DType::Float32, 16, 32, 64, 32},
        {512, 1024, 2816, DType::Bfloat16, 64, 64, 32, 64},
        {512, 1024, 2816, DType::Bfloat16, 128, 32, 64, 32},
        {100, 200, 300, DType::Float32, 32, 16, 16, 64},
        {3, 1000, 2750, DType::Tf32, 16, 64, 32, 128},
        {3, 1000, 2750, DType::Tf32, 16, 16, 128, 16},
        {512, 1024, 2816, DType::Tf32, 64, 64, 32, 64},
        {512, 1024, 2816, DType::Tf32, 32, 64, 64, 64},
        {130, 264, 328, DType::Tf32, 128, 128, 64, 32},
        {100, 200, 300, DType::Tf32, 32, 16, 16, 64},
        // Fewer H steps than pipeline stages: the down product waits for every copy.
        {5, 40, 72, DType::Bfloat16, 16, 16, 32, 32},
        {17, 40, 72, DType::Tf32, 32, 16, 32, 16},
        {64, 64, 128, DType::Bfloat16, 64, 64, 64, 64},
        // On Hopper bfloat16 at BLOCK_M 64 and 128 multiplies with wgmma: rows of 128 columns as
        // two swizzle atoms, the 32- and 64-byte swizzles (16 and 32 columns), N from 16 to 128,
        // partial tiles in every dimension, rows that are not whole 16-byte units.
        {512, 1024, 2816, DType::Bfloat16, 64, 128, 128, 128},
        {130, 264, 328, DType::Bfloat16, 128, 16, 16, 32},
        {70, 1001, 2750, DType::Bfloat16, 64, 32, 32, 64},
        {256, 512, 1024, DType::Bfloat16, 128, 64, 128, 16},
        // Two warpgroups splitting the columns at BLOCK_M 64.
        {512, 1024, 2816, DType::Bfloat16, 64, 128, 32, 128},
        {70, 1001, 2750, DType::Bfloat16, 64, 128, 64, 128},
        {512, 1024, 2816, DType::Bfloat16, 64, 16, 32, 128},
        // TF32 on wgmma (Hopper): rows of 64 to 512 bytes (BLOCK_H 16 to 128), the interleaved
        // gate and up rows with partial I tiles, rows that are not whole 16-byte units, two
        // warpgroups; the two TF32 cases at BLOCK_M 64 and 128 above run it too.
        {70, 1001, 2750, DType::Tf32, 64, 32, 16, 64},
        {256, 512, 1024, DType::Tf32, 128, 64, 128, 16},
        {512, 1024, 2816, DType::Tf32, 64, 128, 32, 128},
        {70, 1002, 2750, DType::Tf32, 64, 16, 64, 128},
        {130, 264, 328, DType::Tf32, 128, 32, 32, 32},
        // mma.sync with 8-column warp groups, where 16-column ones would idle warps: BLOCK_M 16
        // at 32 columns (four warps), BLOCK_M 32 at 32 columns in TF32 (eight warps).
        {512, 1024, 2816, DType::Bfloat16, 16, 32, 64, 32},
        {3, 1000, 2750, DType::Tf32, 16, 32, 64, 32},
        // The copies refilling a step's own slot: TF32 blocks alone on an SM (after the products),
        // bfloat16 at BLOCK_H 32 and BLOCK_I 128 (after the reads; 16/64/32/128 above too).
        {512, 1024, 2816, DType::Tf32, 16, 64, 64, 128},
        {3, 1000, 2750, DType::Tf32, 16, 32, 64, 128},
        {70, 1001, 2750, DType::Tf32, 32, 32, 128, 64},
        {512, 1024, 2816, DType::Bfloat16, 32, 32, 32, 128},
        {70, 1001, 2750, DType::Bfloat16, 32, 16, 32, 128},
        {3, 1024, 2816, DType::Tf32, 16, 64, 64, 128},  // x's 8-column path
        {3, 1024, 2816, DType::Bfloat16, 16, 64, 32, 128},
        {70, 1001, 2750, DType::Tf32, 32, 32, 64, 32},
        // Whole H and I tiles, a partial M tile (as at decode): the entry that checks only x's
        // rows, on mma.sync and on wgmma, in bfloat16 and TF32.
        {3, 1024, 2816, DType::Bfloat16, 16, 64, 64, 64},
        {1, 512, 1024, DType::Bfloat16, 16, 32, 128, 128},
        {70, 1024, 2816, DType::Bfloat16, 64, 64, 32, 128},
        {130, 512, 1024, DType::Bfloat16, 128, 32, 64, 64},
        {3, 1024, 2816, DType::Tf32, 16, 32, 64, 32},
        {70, 1024, 2816, DType::Tf32, 64, 64, 64, 32},
        // BLOCK_M 16 with at most 8 rows takes x as mma's 8-column operand: 8 rows does, 9 not.
        {8, 1024, 2816, DType::Bfloat16, 16, 64, 64, 128},
        {9, 1024, 2816, DType::Bfloat16, 16, 64, 64, 128},
        {8, 1024, 2816, DType::Tf32, 16, 64, 64, 64},
    };
    for (const Case& k : cases) {
        const TileConfiguration c = lessonTiles(k.m, k.h, k.i, k.dtype, k.bm, k.bn, k.bh, k.bi);
        SCOPED_TRACE(caseText(c));
        const std::optional<TileRunResult> result = runChecked(c, 7);
        ASSERT_TRUE(result.has_value());
        const TileCell& cell = result->cell;
        EXPECT_GT(cell.time.medianMs, 0.0);
        EXPECT_LE(cell.time.q1Ms, cell.time.medianMs);
        const VariantResult& run = result->run.variants.front();
        // The check compares 8 rows (all of them when M <= 8), every column.
        EXPECT_EQ(run.check.comparedElements, std::min<std::uint64_t>(k.m, 8) * k.h);
    }
}

// TF32 at 128/128/128/128 takes two stages of x, gate and up tiles of 128-float rows and down's
// tile: 449 KiB on Hopper (wgmma), 576 KiB elsewhere, over any GPU's limit. A plain run with those
// tiles is refused in words before anything is allocated or launched, as the tile explorer
// refuses it, not with cudaFuncSetAttribute's bare error.
TEST_F(TilesGpuTest, ARunWithTilesOverTheSharedMemoryLimitIsRefusedInWords) {
    const RunRequest request = lessonRun(512, 1024, 2816, DType::Tf32, 128, 128, 128, 128);
    RunObserver quiet;
    Result<RunReport> report = runPipeline(*backend, request, quiet);
    ASSERT_FALSE(report) << "the run should be refused";
    const std::string words = report.status().message();
    // The numbers the model gives for this GPU: 449.0 KiB on Hopper.
    const Result<ResourceReport> model =
        reportFor(*backend, lessonTiles(512, 1024, 2816, DType::Tf32, 128, 128, 128, 128));
    ASSERT_TRUE(model) << model.status().message();
    char needsText[40];
    std::snprintf(needsText, sizeof needsText, "needs %.1f KiB",
                  static_cast<double>(model->launch.dynamicSharedBytes) / 1024.0);
    const std::string needs = needsText;
    EXPECT_NE(words.find(needs + " of shared memory per block"), std::string::npos) << words;
    EXPECT_NE(words.find(" allows "), std::string::npos) << words;
    EXPECT_EQ(words.find("cudaErrorInvalidValue"), std::string::npos) << words;

    ASSERT_TRUE(model->refusal.has_value());
    EXPECT_EQ(model->refusal->kind, RefusalKind::SharedMemory);
    EXPECT_NE(model->refusal->reason.find(needs), std::string::npos) << model->refusal->reason;
    if (model->limits.computeCapabilityMajor == 9) {
        EXPECT_EQ(needs, "needs 449.0 KiB");
    }
}

// Cancels once `after` has passed since it was made, and notes when it first said so (asked from
// any thread, as a cancel token is).
class CancelAfter final : public RunObserver {
  public:
    explicit CancelAfter(std::chrono::milliseconds after)
        : at_(std::chrono::steady_clock::now() + after) {}
    bool cancelled() const override {
        const auto now = std::chrono::steady_clock::now();
        if (now < at_) return false;
        std::lock_guard lock(mutex_);
        if (!said_) said_ = now;
        return true;
    }
    std::optional<std::chrono::steady_clock::time_point> firstSaid() const {
        std::lock_guard lock(mutex_);
        return said_;
    }

  private:
    std::chrono::steady_clock::time_point at_;
    mutable std::mutex mutex_;
    mutable std::optional<std::chrono::steady_clock::time_point> said_;
};

// NVRTC takes a second or more over the lesson kernel and cannot be interrupted: a cancel while a
// run compiles it ends the run within half a second, and the next run of the same tiles works
// (the compilation went on in the background and was kept).
TEST_F(TilesGpuTest, ACancelWhileTheLessonKernelCompilesEndsTheRunAtOnce) {
    // Tiles and a shape no other test here compiles, so that the cache has no module for them.
    const RunRequest request = lessonRun(96, 512, 640, DType::Bfloat16, 32, 128, 128, 32);
    CancelAfter cancel(std::chrono::milliseconds(100));
    const Result<RunReport> cancelled = runPipeline(*backend, request, cancel);
    const auto returned = std::chrono::steady_clock::now();
    ASSERT_FALSE(cancelled) << "the run ended before the cancel: the compile took under 100 ms";
    EXPECT_EQ(cancelled.status().code(), ErrorCode::Cancelled) << cancelled.status().message();
    ASSERT_TRUE(cancel.firstSaid().has_value());
    const double afterCancelMs =
        std::chrono::duration<double, std::milli>(returned - *cancel.firstSaid()).count();
    RecordProperty("after_cancel_ms", static_cast<int>(afterCancelMs + 0.5));
    EXPECT_LT(afterCancelMs, 500.0);

    RunObserver quiet;
    const Result<RunReport> again = runPipeline(*backend, request, quiet);
    ASSERT_TRUE(again) << again.status().message();
    ASSERT_EQ(again->variants.size(), 1u);
    EXPECT_TRUE(again->variants.front().check.ok);
}

TEST_F(TilesGpuTest, TheReportIsTheLoadedKernels) {
    const TileConfiguration c = lessonTiles(512, 1024, 2816, DType::Bfloat16, 64, 64, 32, 64);
    Result<ResourceReport> report = reportFor(*backend, c);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_FALSE(report->refusal.has_value());
    const ResourceReport& r = *report;
    EXPECT_TRUE(r.limits.live);
    ASSERT_TRUE(r.compiled.known);
    EXPECT_GT(r.compiled.registersPerThread, 0);
    EXPECT_LE(r.compiled.registersPerThread, 255);
    EXPECT_GE(r.compiled.blocksPerMultiprocessor, 1);
    // Occupancy follows from blocks per SM: at BLOCK_M 64 one warpgroup of 4 warps on Hopper
    // (wgmma), 8 warps elsewhere.
    const int threads = r.limits.computeCapabilityMajor == 9 ? 128 : 256;
    EXPECT_NEAR(
        r.compiled.theoreticalOccupancy,
        r.compiled.blocksPerMultiprocessor * double(threads) / r.limits.maxThreadsPerMultiprocessor,
        1e-12);
    EXPECT_EQ(r.launch.blocks, 8u * 16u);
    EXPECT_EQ(r.launch.threadsPerBlock, threads);
    // The shared memory the model predicts is what one block may use: the device agrees it fits.
    EXPECT_LE(r.launch.dynamicSharedBytes, r.limits.sharedBytesPerBlockOptIn);
    if (r.limits.multiprocessors > 128) {
        EXPECT_EQ(r.idleMultiprocessors, r.limits.multiprocessors - 128);
        EXPECT_NE(r.gridWords.find("SMs idle"), std::string::npos) << r.gridWords;
    }
}

// The kernel is compiled for the blocks its shared memory lets share an SM (its __launch_bounds__
// minimum), so its registers do not decide occupancy: the mma.sync kernel alone on its SM keeps
// its values in registers. On Hopper the wgmma kernel at prefill-512 64/128/64/64 runs one
// warpgroup a block, two blocks an SM, each thread keeping its values in registers (two blocks of
// two warpgroups were bounded at 128 registers: a spill, and wgmma serialized).
TEST_F(TilesGpuTest, RegistersFollowTheBlocksTheSharedMemoryHolds) {
    Result<ResourceReport> alone =
        reportFor(*backend, lessonTiles(512, 1024, 2816, DType::Bfloat16, 16, 32, 128, 128));
    ASSERT_TRUE(alone) << alone.status().message();
    ASSERT_TRUE(alone->compiled.known);
    EXPECT_EQ(alone->compiled.blocksPerMultiprocessor, 1);
    EXPECT_EQ(alone->compiled.localBytesPerThread, 0);
    if (alone->limits.computeCapabilityMajor != 9)
        GTEST_SKIP() << "the wgmma kernel runs on compute capability 9 only";
    Result<ResourceReport> pair =
        reportFor(*backend, lessonTiles(512, 4096, 14336, DType::Bfloat16, 64, 128, 64, 64));
    ASSERT_TRUE(pair) << pair.status().message();
    ASSERT_TRUE(pair->compiled.known);
    EXPECT_EQ(pair->launch.threadsPerBlock, 128);
    EXPECT_EQ(pair->compiled.blocksPerMultiprocessor, 2);
    EXPECT_EQ(pair->compiled.localBytesPerThread, 0);
    EXPECT_GT(pair->compiled.registersPerThread, 128);
}

// The lesson kernel's two builds (the rules' register bound and the other) are timed on the run's
// own buffers before the checked run: the report names the kept build with both times, the kept
// build passes the check with every element written, and a later run of the same tiles and shape
// keeps the choice without timing again. At the classroom shape, TF32 16/16/64/128 (the rules
// give a bound) and bfloat16 128/32/32/32 (they give none on wgmma).
TEST_F(TilesGpuTest, TheRegisterBoundIsChosenByTimingBothBuilds) {
    for (const TileConfiguration& c :
         {lessonTiles(512, 1024, 2816, DType::Tf32, 16, 16, 64, 128),
          lessonTiles(512, 1024, 2816, DType::Bfloat16, 128, 32, 32, 32)}) {
        SCOPED_TRACE(caseText(c));
        std::optional<TileRunResult> first = runChecked(c, 7);
        ASSERT_TRUE(first);
        const std::string choice = first->run.variants.front().kernels.front().resources.choice;
        EXPECT_NE(choice.find(" ms, against "), std::string::npos) << choice;
        EXPECT_NE(choice.find("register bound"), std::string::npos) << choice;
        EXPECT_TRUE(choice.find(" kept: ") != std::string::npos ||
                    choice.find(" chosen: ") != std::string::npos)
            << choice;
        EXPECT_EQ(first->cell.report.compiled.choice, choice);
        std::optional<TileRunResult> second = runChecked(c, 8);
        ASSERT_TRUE(second);
        EXPECT_EQ(second->run.variants.front().kernels.front().resources.choice, choice);
    }
}

TEST_F(TilesGpuTest, DecodeReportsIdleSms) {
    const TileConfiguration c = lessonTiles(1, 4096, 14336, DType::Bfloat16, 16, 128, 64, 64);
    Result<ResourceReport> report = reportFor(*backend, c);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(report->launch.blocks, 32u);
    EXPECT_EQ(report->idleMultiprocessors, report->limits.multiprocessors - 32);
    EXPECT_EQ(report->gridWords.rfind("32 blocks on ", 0), 0u) << report->gridWords;
}

TEST_F(TilesGpuTest, ARefusedConfigurationIsNeverLaunched) {
    const TileConfiguration c = lessonTiles(512, 1024, 2816, DType::Tf32, 128, 128, 128, 128);
    Result<ResourceReport> report = reportFor(*backend, c);
    ASSERT_TRUE(report);
    ASSERT_TRUE(report->refusal.has_value());
    EXPECT_EQ(report->refusal->kind, RefusalKind::SharedMemory);
    EXPECT_FALSE(report->compiled.known);
    RunObserver quiet;
    EXPECT_FALSE(runConfiguration(*backend, c, RunSettings{1, 0, 1}, quiet));
}

struct ProductionCase {
    std::uint64_t m, h, i;
    int tileM, tileI;
};

TEST_F(TilesGpuTest, ProductionNonDefaultTilesAreCorrectOnOddAndWholeShapes) {
    const ProductionCase cases[] = {
        {201, 1000, 2750, 64, 32},   // no dimension a multiple of a tile
        {201, 1000, 2750, 128, 64},  //
        {33, 1001, 2750, 64, 128},   // rows of x and weights not whole 16-byte units
        {512, 1024, 2816, 64, 64},   // whole tiles: the _full entry point
        {512, 1024, 2816, 128, 32},  //
        {512, 1024, 2816, 128, 64},  //
    };
    for (const ProductionCase& k : cases) {
        const TileConfiguration c =
            productionTiles(k.m, k.h, k.i, DType::Bfloat16, k.tileM, k.tileI);
        SCOPED_TRACE(caseText(c));
        const std::optional<TileRunResult> result = runChecked(c, 11);
        ASSERT_TRUE(result.has_value());
        const TileCell& cell = result->cell;
        // The gate_up kernel is the loaded run-time one: its resources are known.
        EXPECT_TRUE(cell.report.compiled.known);
        EXPECT_EQ(cell.report.launch.kernelName, "mlp_gate_up_silu_tiled");
    }
}

TEST_F(TilesGpuTest, ProductionReportIsTheLoadedKernels) {
    const TileConfiguration c = productionTiles(512, 4096, 14336, DType::Bfloat16, 64, 128);
    Result<ResourceReport> report = reportFor(*backend, c);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_FALSE(report->refusal.has_value()) << report->refusal->reason;
    ASSERT_TRUE(report->compiled.known);
    EXPECT_GT(report->compiled.registersPerThread, 0);
    EXPECT_GE(report->compiled.blocksPerMultiprocessor, 1);
    EXPECT_EQ(report->launch.blocks, 8u * 112u);
    EXPECT_EQ(report->launch.threadsPerBlock, 256);
    EXPECT_NEAR(report->compiled.theoreticalOccupancy,
                report->compiled.blocksPerMultiprocessor * 256.0 /
                    report->limits.maxThreadsPerMultiprocessor,
                1e-12);
}

// The production variant's second kernel: out = h down^T through cuBLAS, reading the h the gate_up
// kernel just wrote.
Status downGemm(mlp::MlpCudaContext& context, const mlp::MlpShape& s,
                const mlp::MlpDeviceBuffers& b) {
    return mlp::gemmRowMajorABt(context, DType::Bfloat16, b.scratch, s.I, b.down, s.I, b.out, s.H,
                                s.M, s.H, s.I);
}

// The run-time compiled kernel at the default tiles is the precompiled one's arithmetic: the
// same sums in the same order, so the same bits of out.
TEST_F(TilesGpuTest, ProductionDefaultTilesCompiledMatchThePrecompiledBitForBit) {
    using namespace mlp;
    auto made = MlpCudaContext::create();
    ASSERT_TRUE(made) << made.status().message();
    MlpCudaContext& context = **made;
    for (const MlpShape shape : {MlpShape{512, 1024, 2816}, MlpShape{201, 1000, 2750}}) {
        SCOPED_TRACE("M=" + std::to_string(shape.M) + " H=" + std::to_string(shape.H) +
                     " I=" + std::to_string(shape.I));
        const MlpHostInputs inputs = makeRandomInputs(shape, DType::Bfloat16, 5, 0);
        auto problem = MlpDeviceProblem::create(shape, DType::Bfloat16, inputs);
        ASSERT_TRUE(problem) << problem.status().message();
        const MlpDeviceBuffers b = (*problem)->buffers();
        ASSERT_TRUE((*problem)->poisonOutput(context));
        // The precompiled mma.sync kernel itself: the production variant's code takes the Hopper
        // kernel on an H100/H200.
        const auto* up = static_cast<const unsigned char*>(b.gateUp) +
                         static_cast<std::uint64_t>(shape.I * shape.H) * 2;
        const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, production::kTileM)),
                        static_cast<unsigned>(ceilDiv(shape.I, production::kTileI)));
        ASSERT_EQ(launchProductionPrecompiled(productionTiledFull(production::kDefaultTiles, shape),
                                              grid, static_cast<cudaStream_t>(context.stream()),
                                              b.x, b.gateUp, up, b.scratch,
                                              static_cast<int>(shape.M), static_cast<int>(shape.H),
                                              static_cast<int>(shape.I), shape.H % 8 == 0),
                  cudaSuccess);
        ASSERT_TRUE(downGemm(context, shape, b));
        HostMatrix precompiled(DType::Bfloat16, shape.M, shape.H);
        ASSERT_TRUE((*problem)->download(context, precompiled));

        Result<const TiledKernel*> kernel = productionTiledKernel(production::kDefaultTiles);
        ASSERT_TRUE(kernel) << kernel.status().message();
        ASSERT_TRUE((*problem)->poisonOutput(context));
        ASSERT_TRUE(launchProductionTiled(**kernel, production::kDefaultTiles, shape, b.x, b.gateUp,
                                          up, b.scratch, context.stream()));
        // The down GEMM, the production variant's second kernel, reads the h just written.
        ASSERT_TRUE(downGemm(context, shape, b));
        HostMatrix compiled(DType::Bfloat16, shape.M, shape.H);
        ASSERT_TRUE((*problem)->download(context, compiled));
        EXPECT_EQ(compiled.countNaN(0), 0u);
        EXPECT_EQ(std::memcmp(compiled.data(), precompiled.data(), compiled.bytes()), 0);
    }
}

}  // namespace
}  // namespace fusescope::tiles
