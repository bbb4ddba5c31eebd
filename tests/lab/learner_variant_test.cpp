// "your kernel" is a variant of its reference's family in every view: a recording with a
// learner's run, built by the CLI's own record-building code (model/lab/learner_run.h) beside the
// shipped SwiGLU variants run for real on the CPU, is saved and opened again (which registers
// the variant from the description it carries); the memory stage shows it with its declared
// passes and its peak, compare matches it with the model's DRAM bytes, the bytes chart puts a
// DRAM mark on its kernel, and the results table's CSV and the recording's JSON carry it.
#include <QComboBox>
#include <QJsonDocument>
#include <QListWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "model/comparison.h"
#include "model/format.h"
#include "model/lab/learner_run.h"
#include "model/recorded_pipelines.h"
#include "model/recording_json.h"
#include "model/stage/stage_state.h"
#include "model/stage/stage_timeline.h"
#include "pipelines/runtime_registry.h"
#include "runtime/runner.h"
#include "stage_test_runs.h"
#include "ui/charts/charts.h"
#include "ui/export/table_export.h"
#include "ui/results/results_model.h"
#include "ui/run/run_panel.h"

using namespace fusescope;

namespace {

constexpr quint64 kElements = 65536;
const QString kReference = QStringLiteral("swiglu");

model::LearnerKernel starter() {
    Result<model::LearnerKernel> kernel = model::loadLearnerKernel(
        QStringLiteral(FUSESCOPE_LAB_STARTERS_DIR "/lab_swiglu_scratch.cu"));
    return kernel ? *kernel : model::LearnerKernel{};
}

// What the CLI appends after running the learner's kernel on the GPU: the run record and the
// family's description. Here the kernel's output is computed on the CPU as the starter computes
// it, checked by the reference's own check, and its time is the shipped scratch variant's
// measured CPU time (the starter does what scratch does).
void appendLearnerRun(model::Recording& recording, const model::LearnerKernel& kernel,
                      const model::VariantResult& timedLike,
                      const std::optional<KernelCounters>& counters = std::nullopt) {
    const PipelineSpec& reference = *findBuiltInPipeline(kReference.toStdString());
    Result<PipelineDescription> family = model::learnerFamilyDescription(kernel, reference);
    QVERIFY2(family, family.status().message().c_str());
    RunRequest all;
    all.problem = timedLike.problem;
    const HostBuffers inputs = makeHostInputs(reference, selectedVariants(reference, all),
                                              all.problem, all.settings.seed, CancelToken());
    const auto* gate = reinterpret_cast<const float*>(inputs.find("gate")->data());
    const auto* up = reinterpret_cast<const float*>(inputs.find("up")->data());
    HostBuffers outputs;
    outputs.names = {"out"};
    outputs.values.emplace_back(kElements * sizeof(float));
    auto* out = reinterpret_cast<float*>(outputs.values.back().data());
    for (quint64 i = 0; i < kElements; ++i) out[i] = gate[i] / (1.0f + std::exp(-gate[i])) * up[i];
    const CheckResult check = reference.check(all.problem, inputs, outputs, CancelToken());
    QVERIFY(check.ok);

    LearnerTiming timing;
    timing.medianMs = timedLike.timeMs;
    timing.repeatTimesMs.assign(timedLike.repeatTimesMs.begin(), timedLike.repeatTimesMs.end());
    timing.peakBytesInFlight = kernel.peakBytes(kElements);
    std::uint64_t inFlight = 0;
    for (const model::LearnerBuffer& buffer : kernel.buffers) {
        inFlight += kElements * sizeof(float);
        timing.allocations.push_back({buffer.name.toStdString(), true, kElements * sizeof(float),
                                      static_cast<std::int64_t>(timing.allocations.size()),
                                      inFlight});
    }
    recording.runs.push_back(
        model::learnerRunResult(kernel, reference, all.problem, timing, check, counters));
    recording.pipelineDescriptions.push_back(*family);
}

// A lab recording (the shipped variants run on the CPU and the learner's run) saved and opened
// again, as the window opens one: opening it registers "your kernel" from its description.
void openLabRecording(const std::optional<KernelCounters>& counters,
                      std::optional<model::Recording>& opened) {
    const model::LearnerKernel kernel = starter();
    QVERIFY(!kernel.entry.isEmpty());
    model::Recording recording = stagetest::cpuRecording(kReference, {}, kElements);
    QVERIFY(!recording.runs.empty());
    appendLearnerRun(recording, kernel, recording.runs.front(), counters);
    if (QTest::currentTestFailed()) return;
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString path = folder.filePath("lab.json");
    const Status saved = model::saveRecording(recording, path);
    QVERIFY2(saved, saved.message().c_str());
    Result<model::Recording> loaded = model::openRecording(path);
    QVERIFY2(loaded, loaded.status().message().c_str());
    opened = *loaded;
}

int rowOf(const QAbstractItemModel& table, const QString& variant) {
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.index(row, VariantResultsModel::Variant).data().toString() == variant) return row;
    return -1;
}

}  // namespace

class LearnerVariantTest : public QObject {
    Q_OBJECT
  private slots:
    void cleanup() { (void)unregisterPipeline(kReference.toStdString()); }
    void yourKernelIsAVariantInEveryView();
    void theStageCountsThePassesTheCountersCounted();
    void yourKernelFromARecordingIsOfferedToNoRun();
};

void LearnerVariantTest::yourKernelIsAVariantInEveryView() {
    const model::LearnerKernel kernel = starter();
    QVERIFY(!kernel.entry.isEmpty());
    model::Recording recording = stagetest::cpuRecording(kReference, {}, kElements);
    QVERIFY(recording.runs.size() >= 3);
    appendLearnerRun(recording, kernel, recording.runs.front());
    if (QTest::currentTestFailed()) return;
    const QString yours = model::learnerVariantName();

    // Saved, then opened in a program that never saw the kernel: the description registers it.
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString path = folder.filePath("lab.json");
    const Status saved = model::saveRecording(recording, path);
    QVERIFY2(saved, saved.message().c_str());
    QVERIFY(!findVariant(*findPipeline(kReference.toStdString()), yours.toStdString()));
    Result<model::Recording> opened = model::openRecording(path);
    QVERIFY2(opened, opened.status().message().c_str());
    const PipelineSpec* family = findPipeline(kReference.toStdString());
    QVERIFY(family->variants.size() == findBuiltInPipeline(family->name)->variants.size() + 1);
    QVERIFY(findVariant(*family, yours.toStdString()));
    const int mine = static_cast<int>(opened->runs.size()) - 1;
    QCOMPARE(model::toQString(opened->runs[mine].variant), yours);
    QCOMPARE(model::toQString(opened->runs[mine].pipeline), kReference);

    // The recording's JSON carries the family with the added variant.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray json = file.readAll();
    QVERIFY(json.contains("\"extends_built_in\": true"));
    QVERIFY(json.contains("\"your kernel\""));

    // The memory stage: the declared passes (five, through the scratch buffer) and the peak of
    // its four buffers; beside the shipped scratch variant, on one time scale.
    Result<model::StageTimeline> learner = model::buildStageTimeline(opened->runs[mine]);
    QVERIFY2(learner, learner.status().message().c_str());
    QCOMPARE(learner->variant, yours);
    QCOMPARE(learner->modelPasses, kernel.passCount());
    QCOMPARE(learner->sweeps.size(), 5);
    QCOMPARE(learner->arrays.size(), 4);
    QCOMPARE(learner->peakBytesInFlight, 4 * kElements * sizeof(float));
    QVERIFY(!learner->fused);
    QCOMPARE(learner->dramSource, model::DramSource::Model);
    Result<model::StageTimeline> scratch = model::buildStageTimeline(opened->runs.front());
    QVERIFY(scratch);
    model::alignStageTimelines(*scratch, *learner);
    QCOMPARE(scratch->kernelsStartNs, learner->kernelsStartNs);

    // Compare with another lab recording: matched, with the model's DRAM bytes on both sides.
    const model::RecordingComparison comparison = model::compareRecordings(recording, *opened);
    QVERIFY(comparison.onlyInA.isEmpty() && comparison.onlyInB.isEmpty());
    const auto row = std::find_if(comparison.variants.begin(), comparison.variants.end(),
                                  [&](const auto& v) { return v.variant == yours; });
    QVERIFY(row != comparison.variants.end());
    QVERIFY(row->gbpsOfDram);
    QCOMPARE(row->dramSourceA, QStringLiteral("model"));

    // The bytes chart: a DRAM mark on every kernel, the learner's included.
    BytesPerKernelChart chart;
    chart.resize(1280, 720);
    chart.setRecording(*opened);
    QCoreApplication::processEvents();
    int kernels = 0;
    for (const model::VariantResult& run : opened->runs) kernels += run.kernels.size();
    QVERIFY(chart.graphCount() >= 1);
    QCOMPARE(chart.graph(0)->dataCount(), kernels);

    // The results table and its CSV: the learner's row with its DRAM bytes, passes and peak.
    VariantResultsModel results;
    results.setRecording(*opened);
    const int learnerRow = rowOf(results, yours);
    QVERIFY(learnerRow >= 0);
    const auto cell = [&](int column) {
        return results.index(learnerRow, column).data(VariantResultsModel::SortRole);
    };
    QCOMPARE(cell(VariantResultsModel::DramBytes).toDouble(),
             double(3 * kElements * sizeof(float) + 2 * kElements * sizeof(float)));
    QCOMPARE(cell(VariantResultsModel::Passes).toInt(), 5);
    const QByteArray csv = tableCsv(results);
    const QList<QByteArray> lines = csv.split('\n');
    const auto learnerLine = std::find_if(lines.begin(), lines.end(), [&](const QByteArray& line) {
        return line.startsWith(yours.toUtf8());
    });
    QVERIFY2(learnerLine != lines.end(), csv.constData());
    const QString dram =
        model::formatBytes(5 * kElements * sizeof(float)) + QStringLiteral(" model");
    QVERIFY2(learnerLine->contains(dram.toUtf8()), learnerLine->constData());
}

// A run with counters: the starter declares five passes, but its DRAM saw three sweeps (the L2
// held the scratch). The stage's pass counter ends at the three the results table shows.
void LearnerVariantTest::theStageCountsThePassesTheCountersCounted() {
    KernelCounters counters;
    counters.dramBytesRead = 2.0 * kElements * sizeof(float);
    counters.dramBytesWritten = 1.0 * kElements * sizeof(float);
    std::optional<model::Recording> opened;
    openLabRecording(counters, opened);
    if (QTest::currentTestFailed()) return;
    const model::VariantResult& run = opened->runs.back();
    QCOMPARE(model::toQString(run.variant), model::learnerVariantName());

    VariantResultsModel results;
    results.setRecording(*opened);
    const int row = rowOf(results, model::toQString(run.variant));
    QVERIFY(row >= 0);
    QCOMPARE(results.index(row, VariantResultsModel::Passes).data().toString(),
             QStringLiteral("3"));

    Result<model::StageTimeline> timeline = model::buildStageTimeline(run);
    QVERIFY2(timeline, timeline.status().message().c_str());
    QCOMPARE(timeline->modelPasses, starter().passCount());
    QCOMPARE(timeline->passes, 3);
    model::StageState state;
    model::computeStageState(*timeline, 0, state);
    QCOMPARE(state.passesCompleted, 0);
    model::computeStageState(*timeline, timeline->kernelsEndNs, state);
    QCOMPARE(state.passesCompleted, 3);
}

// Opening a lab recording registers "your kernel", which has no code here (only `fusescope-cli
// run --kernel-file` runs it): the stage shows it, but running all variants (the CLI's
// --variants all, the run panel's list) leaves it out.
void LearnerVariantTest::yourKernelFromARecordingIsOfferedToNoRun() {
    std::optional<model::Recording> opened;
    openLabRecording(std::nullopt, opened);
    if (QTest::currentTestFailed()) return;
    const PipelineSpec* family = findPipeline(kReference.toStdString());
    const PipelineSpec* builtIn = findBuiltInPipeline(kReference.toStdString());
    const std::string yours = model::learnerVariantName().toStdString();
    const VariantSpec* learner = findVariant(*family, yours);
    QVERIFY(learner);
    QVERIFY(isRecordedOnly(*family, *learner));
    for (const VariantSpec& shipped : builtIn->variants)
        QVERIFY(!isRecordedOnly(*family, *findVariant(*family, shipped.name)));

    // All variants, as `fusescope-cli run --variants all` and a live lesson step ask for them.
    const std::vector<const VariantSpec*> all = selectedVariants(*family, RunRequest{});
    QCOMPARE(all.size(), builtIn->variants.size());
    for (const VariantSpec* variant : all) QVERIFY(variant->name != yours);

    // The run panel's list of variants to run.
    RunPanel panel;
    QComboBox* pipelines = panel.pipelineCombo();
    QListWidget* variants = panel.variantList();
    pipelines->setCurrentIndex(-1);
    pipelines->setCurrentIndex(pipelines->findData(kReference));
    QCOMPARE(static_cast<std::size_t>(variants->count()), builtIn->variants.size());
    for (int row = 0; row < variants->count(); ++row)
        QVERIFY(variants->item(row)->text() != QString::fromStdString(learner->title));

    // Every view of the recording still shows it: the stage and the results table.
    Result<model::StageTimeline> stage = model::buildStageTimeline(opened->runs.back());
    QVERIFY2(stage, stage.status().message().c_str());
    QCOMPARE(stage->variant, model::learnerVariantName());
    VariantResultsModel results;
    results.setRecording(*opened);
    QVERIFY(rowOf(results, model::learnerVariantName()) >= 0);
}

QTEST_MAIN(LearnerVariantTest)
#include "learner_variant_test.moc"
