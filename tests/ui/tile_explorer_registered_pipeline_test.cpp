// A second tunable pipeline, registered while the program runs, appears in the Tile explorer with
// nothing above kernels/ knowing it (Qt Test, offscreen): its kernel is offered beside the MLP's;
// choosing it builds its dimensions and tiles; the report is its declared launch geometry, and
// its declared refusal says why tiles that need too much shared memory never launch.
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QtTest>

#include "pipelines/registry.h"
#include "pipelines/runtime_registry.h"
#include "ui/explorer/tile_explorer_tab.h"

using namespace fusescope;

namespace {

constexpr char kPipeline[] = "registered_rows";
constexpr char kTiled[] = "rows_tiled";
constexpr char kTile[] = "rows_per_block";
constexpr std::uint64_t kSharedBytesPerRow = 1024;

std::uint64_t rowsOf(const Problem& problem) {
    return problem.dimension("ROWS");
}

// One kernel that reads and writes every row once.
KernelPlan onePass(const std::string& name) {
    return [name](const Problem& problem) {
        KernelSpec kernel;
        kernel.name = name;
        kernel.execution = name;
        kernel.args = {"in", "out"};
        kernel.traffic.buffers = {{"in", rowsOf(problem) * 4, 0}, {"out", 0, rowsOf(problem) * 4}};
        kernel.traffic.flops = static_cast<double>(rowsOf(problem));
        return std::vector<KernelSpec>{kernel};
    };
}

// A block of rows_per_block rows keeps 1 KiB of shared memory per row.
LaunchGeometry rowsGeometry(const Problem& problem, const DeviceLimits&) {
    const auto rows = static_cast<std::uint64_t>(problem.tuningValue(kTile));
    LaunchGeometry geometry;
    geometry.kernelName = "rows_tiled_kernel";
    geometry.threadsPerBlock = 128;
    geometry.gridX = rows > 0 ? (rowsOf(problem) + rows - 1) / rows : 0;
    geometry.gridY = 1;
    geometry.blocks = geometry.gridX;
    geometry.dynamicSharedBytes = rows * kSharedBytesPerRow;
    return geometry;
}

PipelineSpec registeredPipeline() {
    PipelineSpec pipeline;
    pipeline.name = kPipeline;
    pipeline.title = "Registered rows";
    pipeline.formula = "out = in";
    pipeline.leanestVariant = kTiled;
    pipeline.dimensions = {{"ROWS", "rows", 4096, 1, std::uint64_t{1} << 20}};
    pipeline.dtypes = {DType::Float32};
    TuningSpec tile;
    tile.name = kTile;
    tile.title = "ROWS_PER_BLOCK";
    tile.allowed = {32, 64, 128, 256};
    tile.defaultValue = 64;
    tile.variant = kTiled;
    pipeline.tunings = {tile};
    pipeline.presets = {{"small", "4096 rows", {{"ROWS", 4096}}, std::nullopt},
                        {"large", "65536 rows", {{"ROWS", 65536}}, std::nullopt}};
    pipeline.sizeDimension = "ROWS";
    const std::vector<BufferSpec> buffers = {{"in", BufferRole::Input, {"ROWS"}, 1, 1.0f, 2.0f},
                                             {"out", BufferRole::Output, {"ROWS"}}};
    VariantSpec plain;
    plain.name = "rows_plain";
    plain.title = "Plain rows";
    plain.buffers = buffers;
    plain.plan = onePass("rows_plain_kernel");
    VariantSpec tiled;
    tiled.name = kTiled;
    tiled.title = "Tiled rows";
    tiled.fused = true;
    tiled.baseline = plain.name;
    tiled.buffers = buffers;
    tiled.plan = onePass("rows_tiled_kernel");
    VariantTiles tiles;
    tiles.geometry = rowsGeometry;
    tiles.refusal = [](const PipelineSpec& spec, std::string_view variant, const Problem& problem,
                       const DeviceLimits& limits) -> std::optional<TileRefusal> {
        if (auto refusal = disallowedTile(spec, variant, problem)) return refusal;
        return launchRefusal(rowsGeometry(problem, limits), limits);
    };
    tiled.tiles = tiles;
    pipeline.variants = {plain, tiled};
    // The registry asks every family for its inputs and check; the explorer only models this
    // one, so neither is called.
    pipeline.makeInputs = [](const Problem&, const std::vector<const BufferSpec*>&, std::uint32_t,
                             const CancelToken&) { return HostBuffers{}; };
    pipeline.check = [](const Problem&, const HostBuffers&, const HostBuffers&,
                        const CancelToken&) { return CheckResult{}; };
    return pipeline;
}

int kernelItem(QComboBox* kernels) {
    for (int index = 0; index < kernels->count(); ++index)
        if (kernels->itemData(index).toString() == QLatin1String(kTiled)) return index;
    return -1;
}

}  // namespace

class TileExplorerRegisteredPipelineTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void itsKernelIsOfferedBesideTheBuiltInOnes();
    void choosingItBuildsItsControlsAndUsesItsDeclarations();
    void aSweepOfItShowsItsOwnControls();
};

void TileExplorerRegisteredPipelineTest::initTestCase() {
    const Result<const PipelineSpec*> registered =
        registerPipeline(RuntimePipeline{registeredPipeline(), {}, {}, std::nullopt});
    QVERIFY2(registered.isOk(), registered.status().message().c_str());
    // the name is taken now
    QVERIFY(!registerPipeline(RuntimePipeline{registeredPipeline(), {}, {}, std::nullopt}).isOk());
}

void TileExplorerRegisteredPipelineTest::itsKernelIsOfferedBesideTheBuiltInOnes() {
    TileExplorerTab tab(nullptr);
    QComboBox* kernels = tab.kernelCombo();
    const int index = kernelItem(kernels);
    QVERIFY2(index >= 0, "the registered pipeline's tunable kernel is not offered");
    QVERIFY2(kernels->itemText(index).contains(QStringLiteral("Registered rows")),
             qPrintable(kernels->itemText(index)));
    // The built-in kernels stay, the first of them chosen.
    QVERIFY(kernels->count() > 1);
    QVERIFY(index > 0);
    QCOMPARE(kernels->currentIndex(), 0);
    QVERIFY(tab.configuration().pipeline != kPipeline);
}

void TileExplorerRegisteredPipelineTest::choosingItBuildsItsControlsAndUsesItsDeclarations() {
    TileExplorerTab tab(nullptr);
    tab.kernelCombo()->setCurrentIndex(kernelItem(tab.kernelCombo()));
    QCoreApplication::processEvents();
    const tiles::TileConfiguration chosen = tab.configuration();
    QCOMPARE(chosen.pipeline, std::string(kPipeline));
    QCOMPARE(chosen.variant, std::string(kTiled));
    QCOMPARE(chosen.problem.dimension("ROWS"), std::uint64_t{4096});
    QCOMPARE(chosen.problem.tuningValue(kTile), 64);
    QVERIFY(tab.findChild<QSpinBox*>(QStringLiteral("explorerDimension_ROWS")));
    QVERIFY(!tab.findChild<QSpinBox*>(QStringLiteral("explorerDimension_M")));
    QVERIFY(tab.tileCombo(kTile));
    QVERIFY(!tab.tileCombo("block_m"));
    QCOMPARE(tab.presetCombo()->currentData().toString(), QStringLiteral("small"));

    // The report is the declared geometry: 4096 rows in blocks of 64.
    QVERIFY(tab.shownReport().has_value());
    QCOMPARE(tab.shownReport()->launch.kernelName, std::string("rows_tiled_kernel"));
    QCOMPARE(tab.shownReport()->launch.blocks, std::uint64_t{64});
    QCOMPARE(tab.shownReport()->launch.dynamicSharedBytes, 64 * kSharedBytesPerRow);
    QVERIFY(!tab.shownReport()->refusal);

    // 256 rows need 256 KiB of shared memory: more than a block of the H200 may use.
    QComboBox* tile = tab.tileCombo(kTile);
    tab.gpuCombo()->setCurrentIndex(tab.gpuCombo()->findData(QStringLiteral("h200")));
    tile->setCurrentIndex(tile->findData(256));
    QVERIFY(tab.shownReport()->refusal.has_value());
    QCOMPARE(tab.shownReport()->refusal->kind, RefusalKind::SharedMemory);
    QVERIFY2(tab.refusalLabel()->text().contains(QStringLiteral("256.0 KiB")),
             qPrintable(tab.refusalLabel()->text()));
}

void TileExplorerRegisteredPipelineTest::aSweepOfItShowsItsOwnControls() {
    TileExplorerTab tab(nullptr);
    tiles::TileSweep sweep;
    sweep.request.base.pipeline = kPipeline;
    sweep.request.base.variant = kTiled;
    sweep.request.base.problem.dimensions = {{"ROWS", 65536}};
    sweep.request.base.problem.tuning = {{kTile, 32}};
    sweep.request.axes = {{kTile, {32, 64}}};
    tab.showSweep(sweep, QStringLiteral("made by the test"));
    QCoreApplication::processEvents();
    QCOMPARE(tab.configuration().pipeline, std::string(kPipeline));
    QCOMPARE(tab.configuration().problem.dimension("ROWS"), std::uint64_t{65536});
    QCOMPARE(tab.presetCombo()->currentData().toString(), QStringLiteral("large"));
    QCOMPARE(tab.kernelCombo()->currentData().toString(), QLatin1String(kTiled));
}

QTEST_MAIN(TileExplorerRegisteredPipelineTest)
#include "tile_explorer_registered_pipeline_test.moc"
