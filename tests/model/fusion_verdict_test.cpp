// The verdict on fusion, from hand-made recordings of the MLP at a compute-bound and at a
// memory-bound size, and none where the pipeline declares no leanest fusion.
#include <gtest/gtest.h>

#include "model/format.h"
#include "model/fusion_verdict.h"
#include "model/measured_counts.h"
#include "model/recording_json.h"
#include "pipelines/registry.h"

using namespace fusescope::model;
using fusescope::KernelCounters;
using fusescope::KernelResult;

namespace {

VariantResult run(const char* pipeline, const char* variant, double timeMs, double flops) {
    VariantResult r;
    r.pipeline = pipeline;
    r.variant = variant;
    r.timeMs = timeMs;
    r.modelFlops = flops;
    return r;
}

Recording mlp(double productionMs, double unfusedMs, double flops) {
    Recording recording;
    recording.computeRoof = fusescope::ComputeRoofResult{1.0, 893e12 * 1e-3, "GEMM"};
    recording.runs = {run("mlp", "unfused", unfusedMs, flops),
                      run("mlp", "lesson_fused", 100.0, flops),
                      run("mlp", "production", productionMs, flops)};
    return recording;
}

KernelResult kernel(const char* name, double timeMs, quint64 written = 0,
                    std::optional<double> l2SectorsWritten = std::nullopt) {
    KernelResult k;
    k.name = name;
    k.timeMs = timeMs;
    k.modelBytesWritten = written;
    if (l2SectorsWritten) {
        k.counters.emplace();
        k.counters->l2SectorsWritten = l2SectorsWritten;
    }
    return k;
}

// A hand-made Llama-3-8B prefill run (M = 4096, bfloat16) where production loses to
// merged_gate_up: its gate_up kernel takes longer than cuBLAS's gate_up GEMM and silu_mul
// together, and asks the L2 for twice the bytes of h it writes (7,340,032 sectors of 32 bytes
// for 117,440,512 bytes).
Recording prefillLoss(double productionMs, double unfusedMs) {
    Problem problem = fusescope::findPipeline("mlp")->defaultProblem();
    problem.dimensions = {{"M", 4096}, {"H", 4096}, {"I", 14336}};
    const double flops = 2 * 3 * 4096.0 * 4096.0 * 14336.0;
    Recording recording = mlp(productionMs, unfusedMs, flops);
    recording.runs.push_back(run("mlp", "merged_gate_up", 0.246, flops));
    for (VariantResult& r : recording.runs) r.problem = problem;
    KernelResult gateUpSilu = kernel("gemm_gate_up_silu", 0.190, 117440512, 7340032.0);
    gateUpSilu.resources.known = true;
    gateUpSilu.resources.registersPerThread = 154;
    gateUpSilu.resources.theoreticalOccupancy = 0.1875;
    recording.runs[0].kernels = {kernel("gemm_gate", 0.080), kernel("gemm_up", 0.080),
                                 kernel("silu", 0.012), kernel("multiply", 0.012),
                                 kernel("gemm_down", 0.061)};
    recording.runs[2].kernels = {gateUpSilu, kernel("gemm_down", 0.060)};
    recording.runs[3].kernels = {kernel("gemm_gate_up", 0.160, 234881024, 7340032.0),
                                 kernel("silu_mul", 0.012, 117440512, 3670016.0),
                                 kernel("gemm_down", 0.061)};
    return recording;
}

}  // namespace

TEST(FusionVerdict, ComputeBoundPrefillSavesLittle) {
    // 1.4436e12 FLOPs in 2.00 ms: 722 TFLOP/s, 80.8% of 893.
    const QString text = fusionVerdict(mlp(2.00, 2.04, 1.4436e12));
    EXPECT_TRUE(
        text.startsWith("production and unfused take about the same time (2.00 ms "
                        "against 2.04 ms)."))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains("multiplications take the time: production runs at 722 TFLOP/s, "
                      "80.8% of the compute roof"))
        << text.toStdString();
    EXPECT_TRUE(text.contains("keeping g, u, h on chip saves little")) << text.toStdString();
}

TEST(FusionVerdict, MemoryBoundDecodeShowsTheSaving) {
    const QString text = fusionVerdict(mlp(0.0877, 0.0990, 2 * 3 * 4096.0 * 14336.0));
    EXPECT_TRUE(
        text.startsWith("production is 1.13x faster than unfused (87.7 µs against 99.0 µs)."))
        << text.toStdString();
    EXPECT_TRUE(text.contains("moving bytes takes the time")) << text.toStdString();
}

TEST(FusionVerdict, MemoryBoundDecodeSaysHowCloseItIsToTheCopyFloor) {
    Recording recording = mlp(0.0872, 0.1021, 2 * 3 * 4096.0 * 14336.0);
    recording.roofline = fusescope::RooflineResult{1.0, 4'200'000'000};  // 4,200 GB/s
    VariantResult& production = recording.runs[2];
    KernelResult gateUp = kernel("gemv_gate_up_silu", 0.0580);
    gateUp.counters.emplace();
    gateUp.counters->dramBytesRead = 234.9e6;
    gateUp.counters->dramBytesWritten = 0.1e6;
    KernelResult down = kernel("gemv_down", 0.0292);
    down.counters.emplace();
    down.counters->dramBytesRead = 117.5e6;
    production.kernels = {gateUp, down};
    // 352.5 MB at 4,200 GB/s: 83.9 µs; 87.2 µs is 1.04x that.
    const QString text = fusionVerdict(recording);
    EXPECT_TRUE(
        text.contains(" Its 353 MB of DRAM traffic (measured) take at least 83.9 µs at "
                      "the copy roofline measured in the same run (4,200.0 GB/s); it takes "
                      "87.2 µs, 1.04x that floor."))
        << text.toStdString();

    // Without a measured roofline there is no floor to state.
    recording.roofline = {};
    EXPECT_FALSE(fusionVerdict(recording).contains("that floor"));
}

TEST(FusionVerdict, SlowerFusionIsSaidToBeSlower) {
    const QString text = fusionVerdict(mlp(3.04, 2.14, 1.443e12));
    EXPECT_TRUE(text.startsWith("production is 1.42x slower than unfused")) << text.toStdString();
}

TEST(FusionVerdict, NoneWithoutALeanestFusionOrItsBaseline) {
    Recording swiglu;
    swiglu.runs = {run("swiglu", "scratch", 0.33, 1e9), run("swiglu", "fused", 0.18, 1e9)};
    EXPECT_TRUE(fusionVerdict(swiglu).isEmpty());
    Recording alone = mlp(2.0, 2.0, 1e12);
    alone.runs.erase(alone.runs.begin());  // no unfused run
    EXPECT_TRUE(fusionVerdict(alone).isEmpty());
    EXPECT_TRUE(fusionVerdict(Recording{}).isEmpty());
}

// A variant the run left out is named with its reason, after the verdict on the others, and
// alone where nothing else is said.
TEST(FusionVerdict, AVariantLeftOutIsNamedWithItsReason) {
    Recording recording = mlp(3.04, 2.14, 1.443e12);
    recording.variantsNotRun = {{"merged_gate_up", "merged_gate_up cannot run here: no code"}};
    const QString text = fusionVerdict(recording);
    EXPECT_TRUE(text.startsWith("production is 1.42x slower than unfused")) << text.toStdString();
    EXPECT_TRUE(text.endsWith(" Not run: merged_gate_up cannot run here: no code."))
        << text.toStdString();
    Recording swiglu;
    swiglu.runs = {run("swiglu", "scratch", 0.33, 1e9)};
    swiglu.variantsNotRun = {{"fused", "fused cannot run here: no code."}};
    EXPECT_EQ(fusionVerdict(swiglu), "Not run: fused cannot run here: no code.");
}

TEST(FusionVerdict, ProductionSlowerThanMergedGateUpSaysWhichKernelAndWhy) {
    const QString text = fusionVerdict(prefillLoss(0.265, 0.273));
    EXPECT_TRUE(text.contains(
        "production is 7.7% slower than merged_gate_up (265 µs against 246 µs): its "
        "gemm_gate_up_silu takes 190 µs, merged_gate_up's gemm_gate_up 160 µs plus silu_mul "
        "12.0 µs; its gemm_down takes 60.0 µs, merged_gate_up's gemm_down 61.0 µs."))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains("gemm_gate_up_silu asks the L2 for 2.00x the bytes of h it writes (235 MB "
                      "of write requests for 117 MB), against 1.00x for gemm_gate_up, 1.00x for "
                      "silu_mul; gemm_gate_up_silu holds 154 registers a thread, a theoretical "
                      "occupancy of 18.8%."))
        << text.toStdString();
    // Faster than unfused: nothing kernel by kernel against it.
    EXPECT_FALSE(text.contains("against unfused:")) << text.toStdString();
}

TEST(FusionVerdict, ProductionSlowerThanUnfusedToo) {
    const QString text = fusionVerdict(prefillLoss(0.265, 0.250));
    EXPECT_TRUE(text.startsWith("production is 1.06x slower than unfused (265 µs against 250 µs)."))
        << text.toStdString();
    EXPECT_TRUE(text.contains(
        "Kernel by kernel against unfused: its gemm_gate_up_silu takes 190 µs, unfused's "
        "gemm_gate 80.0 µs plus gemm_up 80.0 µs plus silu 12.0 µs plus multiply 12.0 µs; its "
        "gemm_down takes 60.0 µs, unfused's gemm_down 61.0 µs. gemm_gate_up_silu asks the L2"))
        << text.toStdString();
}

TEST(FusionVerdict, NothingKernelByKernelWhereProductionWins) {
    Recording recording = prefillLoss(0.240, 0.273);
    const QString text = fusionVerdict(recording);
    EXPECT_FALSE(text.contains("merged_gate_up")) << text.toStdString();
    EXPECT_FALSE(text.contains("asks the L2")) << text.toStdString();
}

// The classroom recording the program shipped before its gate_up kernel's epilogue took one tanh
// (H200, bfloat16, M = 512, 2026-12-03): production is slower than merged_gate_up there; the
// verdict says so with the file's own times, and names what the file measured of its gate_up
// kernel: a grid that leaves SMs idle and its registers. Its stores write whole sectors, so no
// store pattern is blamed.
TEST(FusionVerdict, ClassroomRecordingSaysWhyProductionLosesToMergedGateUp) {
    fusescope::Result<Recording> loaded = loadRecording(QStringLiteral(
        FUSESCOPE_TEST_DATA_DIR "/h200-mlp-classroom-bf16-before-bands.fusescope.json"));
    ASSERT_TRUE(loaded) << loaded.status().message();
    const VariantResult *production = nullptr, *merged = nullptr;
    for (const VariantResult& r : loaded->runs) {
        if (r.variant == "production") production = &r;
        if (r.variant == "merged_gate_up") merged = &r;
    }
    ASSERT_TRUE(production && merged);
    ASSERT_GT(production->timeMs, merged->timeMs);
    const KernelResult& gateUp = production->kernels.front();
    ASSERT_EQ(gateUp.name, "gemm_gate_up_silu");
    ASSERT_TRUE(measured(gateUp, &KernelCounters::l2SectorsWritten));
    const QString text = fusionVerdict(*loaded);
    EXPECT_TRUE(text.contains(
        QStringLiteral("production is %1 slower than merged_gate_up (%2 "
                       "against %3): its gemm_gate_up_silu takes %4, "
                       "merged_gate_up's gemm_gate_up %5 plus silu_mul %6")
            .arg(formatPercent(production->timeMs / merged->timeMs - 1.0),
                 formatDuration(production->timeMs), formatDuration(merged->timeMs),
                 formatDuration(gateUp.timeMs), formatDuration(merged->kernels[0].timeMs),
                 formatDuration(merged->kernels[1].timeMs))))
        << text.toStdString();
    const int blocks = gateUp.resources.gridSize, sms = loaded->device.multiprocessors;
    ASSERT_GT(blocks, 0);
    ASSERT_LT(blocks, sms);
    EXPECT_TRUE(text.contains(QStringLiteral("gemm_gate_up_silu runs %1 blocks on %2 SMs: %3 SMs "
                                             "idle; gemm_gate_up_silu holds %4 registers a thread")
                                  .arg(blocks)
                                  .arg(sms)
                                  .arg(sms - blocks)
                                  .arg(gateUp.resources.registersPerThread)))
        << text.toStdString();
    const double ratio = *measured(gateUp, &KernelCounters::l2SectorsWritten) * 32.0 /
                         double(gateUp.modelBytesWritten);
    ASSERT_LT(ratio, 1.1);
    EXPECT_FALSE(text.contains(QStringLiteral("asks the L2"))) << text.toStdString();
}
