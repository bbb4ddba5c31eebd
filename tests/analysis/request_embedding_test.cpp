// A request that becomes other requests hands on its settings (repeats, warm-up, seed) and its
// target (backend, GPU) whole: a sweep to the run at each of its sizes, a tile sweep to the run
// of each cell and of its references. A field dropped on the way fails here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/sweep.h"
#include "tiles/tile_sweep.h"
#include "tiles/tile_types.h"

using namespace fusescope;

namespace {

// Every field away from its default, so that a field left behind shows.
RunSettings unusualSettings() {
    RunSettings settings;
    settings.repeats = 4;
    settings.warmup = 2;
    settings.seed = 777;
    return settings;
}

Target unusualTarget() {
    Target target;
    target.backend = BackendChoice::Cpu;
    target.cudaDevice = 3;
    return target;
}

class RepeatCounter : public RunObserver {
  public:
    void variantFinished(const VariantResult& result) override {
        repeatsSeen.push_back(result.repeatTimesMs.size());
    }
    std::vector<std::size_t> repeatsSeen;
};

}  // namespace

TEST(RequestEmbedding, EverySweepPointCarriesTheSweepsSettingsAndTarget) {
    SweepRequest sweep;
    sweep.pipeline = "affine";
    sweep.variants = {"fused"};
    sweep.settings = unusualSettings();
    sweep.target = unusualTarget();
    for (std::uint64_t n : {std::uint64_t{4096}, std::uint64_t{1} << 20}) {
        const RunRequest point = sweepPointRequest(sweep, n);
        EXPECT_EQ(point.pipeline, sweep.pipeline);
        EXPECT_EQ(point.variants, sweep.variants);
        EXPECT_EQ(point.problem.dimension("N"), n);
        EXPECT_TRUE(point.settings == sweep.settings)
            << "repeats " << point.settings.repeats << ", warm-up " << point.settings.warmup
            << ", seed " << point.settings.seed;
        EXPECT_TRUE(point.target == sweep.target);
    }
}

// The settings reach the runner: each point is timed as often as the sweep asks.
TEST(RequestEmbedding, ASweepOnTheCpuTimesEveryPointAsOftenAsAsked) {
    SweepRequest sweep;
    sweep.pipeline = "affine";
    sweep.variants = {"fused"};
    sweep.from = 4096;
    sweep.to = 8192;
    sweep.settings = unusualSettings();
    sweep.target.backend = BackendChoice::Cpu;
    auto backend = createCpuBackend(1);
    RepeatCounter observer;
    Result<SweepReport> report = runSweep(*backend, sweep, observer);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_EQ(observer.repeatsSeen.size(), 2u);
    for (std::size_t repeats : observer.repeatsSeen)
        EXPECT_EQ(repeats, static_cast<std::size_t>(sweep.settings.repeats));
    EXPECT_EQ(report->repeats, sweep.settings.repeats);
}

TEST(RequestEmbedding, EveryTileCellCarriesTheTileSweepsSettingsAndTarget) {
    tiles::TileSweepRequest request;
    request.base.pipeline = "mlp";
    request.base.variant = "lesson_fused";
    request.base.problem.dimensions = {{"M", 3}, {"H", 1000}, {"I", 2750}};
    request.base.problem.tuning = {{"block_m", 16}, {"block_n", 64}};
    request.axes = {{"block_n", {32, 64, 128}}};
    request.settings = unusualSettings();
    request.target = unusualTarget();
    std::vector<tiles::TileConfiguration> cells = tiles::configurationsOf(request);
    ASSERT_EQ(cells.size(), 3u);
    cells.push_back(request.base);  // the references run at the base configuration
    for (const tiles::TileConfiguration& cell : cells) {
        const RunRequest run = tiles::cellRunRequest(request, cell);
        EXPECT_EQ(run.pipeline, cell.pipeline);
        EXPECT_EQ(run.variants, std::vector<std::string>{cell.variant});
        EXPECT_TRUE(run.problem == cell.problem);
        EXPECT_TRUE(run.settings == request.settings);
        EXPECT_TRUE(run.target == request.target);
    }
}
