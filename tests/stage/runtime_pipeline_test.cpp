// A pipeline family registered while the program runs goes everywhere a built-in one goes: the
// three-step chain (t = x*2; u = t + y; out = u*u), defined as data with its CPU kernels given at
// registration, is run on the CPU backend, saved, unregistered, opened again (which registers it
// from the recording), shown on the memory stage with its passes counted, exported as PNG and
// SVG, compared with the built-in affine chain, and shown by a fusescope-cli that never
// registered it.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "model/comparison.h"
#include "model/recorded_pipelines.h"
#include "model/recording_json.h"
#include "model/stage/stage_timeline.h"
#include "stage_test_runs.h"
#include "support/runtime_chain.h"
#include "ui/stage/stage_export.h"

using namespace fusescope;

namespace {

const QString kChain = QStringLiteral("runtime_chain");
constexpr quint64 kElements = 100003;

void registerChain() {
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(test::chainDescription());
    QVERIFY2(pipeline, pipeline.status().message().c_str());
    test::addChainCpuExecutions(*pipeline);
    Result<const PipelineSpec*> registered = registerPipeline(std::move(*pipeline));
    QVERIFY2(registered, registered.status().message().c_str());
}

const model::VariantResult* findRun(const model::Recording& recording, const QString& pipeline,
                                    const QString& variant) {
    for (const model::VariantResult& run : recording.runs)
        if (model::toQString(run.pipeline) == pipeline && model::toQString(run.variant) == variant)
            return &run;
    return nullptr;
}

}  // namespace

class RuntimePipelineTest : public QObject {
    Q_OBJECT
  private slots:
    void cleanup() { (void)unregisterPipeline(kChain.toStdString()); }
    void runSaveOpenStageExportCompare();
    void aRecordingNamingABuiltInPipelineInItsDescriptionIsRefused();
};

void RuntimePipelineTest::runSaveOpenStageExportCompare() {
    registerChain();
    if (QTest::currentTestFailed()) return;

    // Run: both variants of the chain, and the built-in affine chain beside it.
    model::Recording recording = stagetest::cpuRecording(kChain, {"unfused", "fused"}, kElements);
    const model::Recording affine = stagetest::cpuRecording("affine", {}, kElements);
    QCOMPARE(recording.runs.size(), 2);
    QCOMPARE(affine.runs.size(), 2);
    for (const model::VariantResult& run : recording.runs)
        QVERIFY2(run.check.ok, run.variant.c_str());
    QCOMPARE(recording.runs[0].passes, 7);
    QCOMPARE(recording.runs[1].passes, 3);
    QCOMPARE(recording.pipelineDescriptions.size(), 1);
    recording.runs.insert(recording.runs.end(), affine.runs.begin(), affine.runs.end());

    // Save, forget the family, open: the recording registers it again.
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString path = folder.filePath("chain.json");
    const Status saved = model::saveRecording(recording, path);
    QVERIFY2(saved, saved.message().c_str());
    QVERIFY(unregisterPipeline(kChain.toStdString()));
    QVERIFY(!findPipeline(kChain.toStdString()));
    Result<model::Recording> opened = model::openRecording(path);
    QVERIFY2(opened, opened.status().message().c_str());
    QVERIFY(findPipeline(kChain.toStdString()));
    QCOMPARE(opened->pipelineDescriptions.size(), 1);
    QVERIFY(opened->pipelineDescriptions.front() == test::chainDescription());
    QCOMPARE(opened->runs.size(), 4);
    QCOMPARE(opened->runs[0].kernels.size(), 3);

    // The stage: the family's pass model, from the registry, counts each kernel's sweeps.
    const model::StageRunPair pair = model::defaultStageRunPair(*opened);
    QCOMPARE(pair.left, 0);
    QCOMPARE(pair.right, 1);
    Result<model::StageTimeline> unfused = model::buildStageTimeline(opened->runs[pair.left]);
    Result<model::StageTimeline> fused = model::buildStageTimeline(opened->runs[pair.right]);
    QVERIFY2(unfused, unfused.status().message().c_str());
    QVERIFY2(fused, fused.status().message().c_str());
    QCOMPARE(unfused->modelPasses, 7);
    QCOMPARE(unfused->sweeps.size(), 7);
    QCOMPARE(unfused->kernels.size(), 3);
    QCOMPARE(unfused->arrays.size(), 5);
    QCOMPARE(fused->modelPasses, 3);
    QCOMPARE(fused->sweeps.size(), 3);
    QVERIFY(fused->kernels.front().holdsIntermediateInRegisters);
    QCOMPARE(unfused->modelBytesRead, 4 * kElements * 4);
    // Scratch t and u make the unfused peak two arrays larger than the fused one's.
    QCOMPARE(unfused->peakBytesInFlight - fused->peakBytesInFlight, 2 * kElements * 4);

    // Export: the side-by-side stage as PNG and SVG.
    model::alignStageTimelines(*unfused, *fused);
    StageRenderer renderer;
    renderer.setTimelines(*unfused, &*fused);
    renderer.setCaption({QStringLiteral("CPU"), QStringLiteral("N = 100,003 · float32"),
                         QStringLiteral("CPU backend"), QString(), QString()});
    const QString png = folder.filePath("stage.png");
    const QString svg = folder.filePath("stage.svg");
    const StageExportResult pngResult =
        exportStagePng(renderer, png, QSize(960, 540), unfused->kernelsStartNs);
    QVERIFY2(pngResult.ok, qPrintable(pngResult.message));
    QCOMPARE(QImage(png).size(), QSize(960, 540));
    const StageExportResult svgResult =
        exportStageSvg(renderer, svg, QSize(960, 540), unfused->kernelsStartNs);
    QVERIFY2(svgResult.ok, qPrintable(svgResult.message));
    QVERIFY(QFileInfo(svg).size() > 0);

    // Compare: the reopened recording against the one that was saved, run-time and built-in
    // variants side by side; and the chain's stage beside the affine chain's.
    const model::RecordingComparison comparison = model::compareRecordings(recording, *opened);
    QCOMPARE(comparison.variants.size(), 4);
    QVERIFY(comparison.onlyInA.isEmpty() && comparison.onlyInB.isEmpty());
    for (const model::VariantComparison& variant : comparison.variants)
        QCOMPARE(variant.timeRatio().value_or(0.0), 1.0);
    const model::VariantResult* affineUnfused = findRun(*opened, "affine", "unfused");
    QVERIFY(affineUnfused);
    Result<model::StageTimeline> builtIn = model::buildStageTimeline(*affineUnfused);
    QVERIFY2(builtIn, builtIn.status().message().c_str());
    Result<model::StageTimeline> chain = model::buildStageTimeline(opened->runs[0]);
    QVERIFY(chain);
    model::alignStageTimelines(*chain, *builtIn);
    QCOMPARE(chain->kernelsStartNs, builtIn->kernelsStartNs);
    QCOMPARE(builtIn->modelPasses, 4);

    // A program that never registered the chain shows the recording.
    QProcess cli;
    cli.start(QStringLiteral(FUSESCOPE_CLI_PATH), {QStringLiteral("show"), path});
    QVERIFY(cli.waitForFinished(60000));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    QVERIFY2(cli.exitCode() == 0, qPrintable(QString::fromUtf8(cli.readAllStandardError())));
    // The title comes from the family the recording registered in that program.
    QVERIFY2(out.contains(QStringLiteral("Three-step chain")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("unfused")), qPrintable(out));
}

void RuntimePipelineTest::aRecordingNamingABuiltInPipelineInItsDescriptionIsRefused() {
    registerChain();
    if (QTest::currentTestFailed()) return;
    model::Recording recording = stagetest::cpuRecording(kChain, {"fused"}, 1000);
    QCOMPARE(recording.runs.size(), 1);
    recording.pipelineDescriptions.front().name = "affine";
    QTemporaryDir folder;
    const QString path = folder.filePath("clash.json");
    QVERIFY(model::saveRecording(recording, path));
    Result<model::Recording> opened = model::openRecording(path);
    QVERIFY(!opened);
    QVERIFY2(QString::fromStdString(opened.status().message()).contains("built in"),
             opened.status().message().c_str());
}

QTEST_MAIN(RuntimePipelineTest)
#include "runtime_pipeline_test.moc"
