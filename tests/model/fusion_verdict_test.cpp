// The verdict on fusion, from hand-made recordings of the MLP at a compute-bound and at a
// memory-bound size, and none where the pipeline declares no leanest fusion.
#include <gtest/gtest.h>

#include "model/fusion_verdict.h"

using namespace fusescope::model;

namespace {

RunRecord run(const char* pipeline, const char* variant, double timeMs, double flops) {
    RunRecord r;
    r.pipeline = QString::fromLatin1(pipeline);
    r.variant = QString::fromLatin1(variant);
    r.timeMs = timeMs;
    r.modelFlops = flops;
    return r;
}

Recording mlp(double productionMs, double unfusedMs, double flops) {
    Recording recording;
    recording.computeRoof = ComputeRoofRecord{1.0, 893e12 * 1e-3, QStringLiteral("GEMM")};
    recording.runs = {run("mlp", "unfused", unfusedMs, flops),
                      run("mlp", "lesson_fused", 100.0, flops),
                      run("mlp", "production", productionMs, flops)};
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

TEST(FusionVerdict, SlowerFusionIsSaidToBeSlower) {
    const QString text = fusionVerdict(mlp(3.04, 2.14, 1.443e12));
    EXPECT_TRUE(text.startsWith("production is 1.42x slower than unfused")) << text.toStdString();
}

TEST(FusionVerdict, NoneWithoutALeanestFusionOrItsBaseline) {
    Recording swiglu;
    swiglu.runs = {run("swiglu", "scratch", 0.33, 1e9), run("swiglu", "fused", 0.18, 1e9)};
    EXPECT_TRUE(fusionVerdict(swiglu).isEmpty());
    Recording alone = mlp(2.0, 2.0, 1e12);
    alone.runs.removeFirst();  // no unfused run
    EXPECT_TRUE(fusionVerdict(alone).isEmpty());
    EXPECT_TRUE(fusionVerdict(Recording{}).isEmpty());
}
