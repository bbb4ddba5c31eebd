// The result table models over a real CPU run: QAbstractItemModelTester through reset, append
// and clear; what the cells say; and N parsing and settings of the run panel's choices.
#include <QAbstractItemModelTester>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "model/format.h"
#include "model/measured_counts.h"
#include "model/recording.h"
#include "model/recording_json.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "support/runtime_chain.h"
#include "ui/results/results_model.h"
#include "ui/run/run_choices.h"

using namespace fusescope;

namespace {

// A small run of every variant of every pipeline on the CPU backend: real numbers.
model::Recording cpuRecording(const PipelineSpec& pipeline) {
    std::unique_ptr<Backend> backend = createCpuBackend(1);
    RunRequest request;
    request.pipeline = pipeline.name;
    // Small problems: N = 1000 is not a multiple of 4 (the vector tail runs too); other
    // pipelines get every dimension at 9, a multiple of no tile.
    for (const DimensionSpec& dimension : pipeline.dimensions)
        request.problem.dimensions[dimension.name] = dimension.name == "N" ? 1000 : 9;
    request.settings.repeats = 2;
    request.settings.warmup = 0;
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    if (!report) qFatal("CPU run failed: %s", report.status().message().c_str());
    model::RecordingOrigin options;
    options.producer = QStringLiteral("ui_models_test");
    return model::recordingFrom(*report, options);
}

}  // namespace

class ResultsModelTest : public QObject {
    Q_OBJECT
  private slots:
    void variantModelPassesTheModelTester();
    void kernelModelPassesTheModelTester();
    void cellsSayWhatTheRunMeasured();
    void failedCheckIsShownInRed();
    void aVariantLeftOutHasARowWithItsReason();
    void aFailedCheckSaysWhichOutputAndElement();
    void timeSaysHowAChainWasTimed();
    void aboveTheRooflineIsExplainedForWhatCausedIt();
    void runChoicesRoundTripThroughSettings();
    void shippedPrefillCellsSayTheirSource();
};

void ResultsModelTest::variantModelPassesTheModelTester() {
    VariantResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (const PipelineSpec& pipeline : pipelines()) {
        const model::Recording recording = cpuRecording(pipeline);
        model.setRecording(recording);
        QCOMPARE(model.rowCount(), recording.runs.size());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        for (const model::VariantResult& run : recording.runs) model.appendRun(run);
        QCOMPARE(model.rowCount(), recording.runs.size());
    }
}

void ResultsModelTest::kernelModelPassesTheModelTester() {
    KernelResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (const PipelineSpec& pipeline : pipelines()) {
        const model::Recording recording = cpuRecording(pipeline);
        qsizetype kernels = 0;
        for (const model::VariantResult& run : recording.runs) kernels += run.kernels.size();
        model.setRecording(recording);
        QCOMPARE(model.rowCount(), kernels);
        model.clear();
        for (const model::VariantResult& run : recording.runs) model.appendRun(run);
        QCOMPARE(model.rowCount(), kernels);
    }
}

void ResultsModelTest::cellsSayWhatTheRunMeasured() {
    const PipelineSpec& pipeline = pipelines().front();
    const model::Recording recording = cpuRecording(pipeline);
    VariantResultsModel model;
    model.setRecording(recording);
    // The rate column divides the model's bytes on a CPU run, and its title says so.
    QCOMPARE(model.headerData(VariantResultsModel::GBps, Qt::Horizontal).toString(),
             QStringLiteral("model GB/s"));
    QCOMPARE(model.headerData(VariantResultsModel::RooflinePercent, Qt::Horizontal).toString(),
             QStringLiteral("% of copy roofline (model)"));
    for (int row = 0; row < model.rowCount(); ++row) {
        const model::VariantResult& run = recording.runs.at(row);
        QCOMPARE(model.index(row, VariantResultsModel::Variant).data().toString(),
                 model::toQString(run.variant));
        QCOMPARE(model.index(row, VariantResultsModel::Passes).data().toString(),
                 QString::number(run.passes));
        QCOMPARE(model.index(row, VariantResultsModel::Kernels).data().toString(),
                 QString::number(run.kernels.size()));
        QCOMPARE(model.index(row, VariantResultsModel::TimeMs)
                     .data(VariantResultsModel::SortRole)
                     .toDouble(),
                 run.timeMs);
        const double fraction = model.index(row, VariantResultsModel::RooflinePercent)
                                    .data(VariantResultsModel::SortRole)
                                    .toDouble();
        // No counters on the CPU: the model's distinct bytes, said so in the DRAM cell.
        const model::RunTraffic traffic = model::runTraffic(run);
        QCOMPARE(traffic.dramSource, model::DramSource::Model);
        QCOMPARE(fraction, traffic.dramGBps() / recording.roofline.gbps());
        QVERIFY(model.index(row, VariantResultsModel::DramBytes)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral(" model")));
        QVERIFY(model.index(row, VariantResultsModel::Check).data().toString().startsWith("OK"));
    }
}

void ResultsModelTest::failedCheckIsShownInRed() {
    model::Recording recording = cpuRecording(pipelines().front());
    // A run whose check failed, as a recording from a broken kernel would hold it.
    model::VariantResult& run = recording.runs.front();
    run.check.ok = false;
    run.check.unwrittenElements = 7;
    VariantResultsModel model;
    model.setRecording(recording);
    const QModelIndex check = model.index(0, VariantResultsModel::Check);
    QVERIFY(check.data().toString().startsWith(QStringLiteral("FAIL")));
    QVERIFY(check.data().toString().contains(QStringLiteral("7 elements never written")));
    const QColor failColor = check.data(Qt::ForegroundRole).value<QColor>();
    const QColor okColor =
        model.index(1, VariantResultsModel::Check).data(Qt::ForegroundRole).value<QColor>();
    QVERIFY(failColor.red() > failColor.green());
    QVERIFY(okColor.green() > okColor.red());
}

// A variant the run left out (no code for it on this backend) gets a row after the runs: its
// name, "not run" where the check would be, the reason in the tooltip, in grey; appending a run
// keeps it last, and the model tester sees every change.
void ResultsModelTest::aVariantLeftOutHasARowWithItsReason() {
    model::Recording recording = cpuRecording(pipelines().front());
    const model::VariantResult last = recording.runs.back();
    recording.runs.pop_back();
    recording.variantsNotRun = {{"fused", "fused cannot run here: no code on this backend"}};
    VariantResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecording(recording);
    const int row = static_cast<int>(recording.runs.size());
    QCOMPARE(model.rowCount(), row + 1);
    QCOMPARE(model.index(row, VariantResultsModel::Variant).data().toString(),
             QStringLiteral("fused"));
    QCOMPARE(model.index(row, VariantResultsModel::Check).data().toString(),
             QStringLiteral("not run"));
    QCOMPARE(model.index(row, VariantResultsModel::TimeMs).data().toString(), QStringLiteral("–"));
    QVERIFY(model.index(row, VariantResultsModel::TimeMs)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("no code on this backend")));
    const QColor grey =
        model.index(row, VariantResultsModel::Variant).data(Qt::ForegroundRole).value<QColor>();
    QCOMPARE(grey.red(), grey.green());
    model.appendRun(last);
    QCOMPARE(model.rowCount(), row + 2);
    QCOMPARE(model.index(row, VariantResultsModel::Variant).data().toString(),
             model::toQString(last.variant));
    QCOMPARE(model.index(row + 1, VariantResultsModel::Check).data().toString(),
             QStringLiteral("not run"));
}

// A variant that writes the second of its two outputs wrong: the check cell names that output,
// the element, what it holds and what was expected, as the run found them.
void ResultsModelTest::aFailedCheckSaysWhichOutputAndElement() {
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(test::twoOutputDescription());
    QVERIFY(pipeline);
    test::addTwoOutputCpuExecutions(*pipeline);
    QVERIFY(replacePipeline(std::move(*pipeline)));
    const test::RegisteredForTest registered{"two_outputs"};
    const model::Recording recording = cpuRecording(*findPipeline("two_outputs"));
    QCOMPARE(recording.runs.size(), 2);
    VariantResultsModel model;
    model.setRecording(recording);
    QVERIFY(model.index(0, VariantResultsModel::Check).data().toString().startsWith("OK"));
    const QString failed = model.index(1, VariantResultsModel::Check).data().toString();
    QVERIFY2(failed.startsWith(QStringLiteral("FAIL")), qPrintable(failed));
    const model::VariantResult& wrong = recording.runs.at(1);
    QCOMPARE(wrong.check.wrongOutput, std::string("shifted"));
    QVERIFY2(failed.contains(QStringLiteral("shifted[%1] holds %2 where %3 was expected")
                                 .arg(model::formatCount(wrong.check.wrongElement.index),
                                      QString::number(wrong.check.wrongElement.got, 'g', 9),
                                      QString::number(wrong.check.wrongElement.expected, 'g', 9))),
             qPrintable(failed));
    QVERIFY(qAbs(wrong.check.wrongElement.got - wrong.check.wrongElement.expected - 1.0) < 1e-5);
}

void ResultsModelTest::timeSaysHowAChainWasTimed() {
    model::Recording recording = cpuRecording(pipelines().front());
    model::VariantResult* chain = nullptr;
    for (model::VariantResult& run : recording.runs)
        if (run.kernels.size() > 1) chain = &run;
    QVERIFY(chain);
    // As a GPU run records a chain whose kernels overlap when launched back to back.
    chain->kernelsApartTimeMs = chain->timeMs * 1.25;
    VariantResultsModel model;
    model.setRecording(recording);
    for (int row = 0; row < model.rowCount(); ++row) {
        const model::VariantResult& run = recording.runs.at(row);
        const QString tip =
            model.index(row, VariantResultsModel::TimeMs).data(Qt::ToolTipRole).toString();
        QVERIFY2(
            tip.startsWith(QStringLiteral("Median of %1 repeats").arg(run.repeatTimesMs.size())),
            qPrintable(tip));
        QCOMPARE(tip.contains(QStringLiteral("back to back")), run.kernels.size() > 1);
        QCOMPARE(tip.contains(model::formatDuration(chain->kernelsApartTimeMs)), &run == chain);
    }
}

void ResultsModelTest::aboveTheRooflineIsExplainedForWhatCausedIt() {
    // A roofline so slow that every run is above it: the share is made of DRAM bytes (the
    // model's distinct bytes on the CPU), which beat a plain copy by streaming.
    for (const PipelineSpec& pipeline : pipelines()) {
        model::Recording recording = cpuRecording(pipeline);
        recording.roofline.bytesMoved = 1;
        recording.roofline.timeMs = 1000.0;
        VariantResultsModel model;
        model.setRecording(recording);
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString tip = model.index(row, VariantResultsModel::RooflinePercent)
                                    .data(Qt::ToolTipRole)
                                    .toString();
            QVERIFY2(tip.startsWith(QStringLiteral("DRAM bytes (model) per second")),
                     qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("Above 100%")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("not the hardware's limit")), qPrintable(tip));
        }
    }
}

void ResultsModelTest::runChoicesRoundTripThroughSettings() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("settings.ini"));
    const PipelineSpec& pipeline = *findPipeline("swiglu");
    RunCommand saved;
    saved.request.pipeline = pipeline.name;
    saved.request.variants = {pipeline.variants.back().name};
    saved.request.problem.dimensions["N"] = 123457;
    saved.request.problem.tuning["vector"] = 1;
    saved.request.target.backend = BackendChoice::Cpu;
    saved.request.settings.repeats = 7;
    {
        QSettings settings(path, QSettings::IniFormat);
        saveRunChoices(settings, saved);
    }
    QSettings settings(path, QSettings::IniFormat);
    const RunCommand loaded = loadRunChoices(settings);
    QVERIFY(loaded.request.pipeline == saved.request.pipeline);
    QVERIFY(loaded.request.variants == saved.request.variants);
    QCOMPARE(loaded.request.problem.dimension("N"), saved.request.problem.dimension("N"));
    QCOMPARE(loaded.request.problem.tuningValue("vector"),
             saved.request.problem.tuningValue("vector"));
    QCOMPARE(loaded.request.target.backend, saved.request.target.backend);
    QCOMPARE(loaded.request.settings.repeats, saved.request.settings.repeats);
}

QTEST_MAIN(ResultsModelTest)
void ResultsModelTest::shippedPrefillCellsSayTheirSource() {
    // The shipped H200 prefill recording: the lesson kernel's row shows the DRAM bytes its
    // counters measured, their rate below the copy roofline, and the useful TFLOP/s with the
    // executed ones beside them.
    Result<model::Recording> loaded = model::loadRecording(
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-prefill-4096-bf16.fusescope.json"));
    QVERIFY2(loaded, loaded.status().message().c_str());
    VariantResultsModel model;
    model.setRecording(*loaded);
    QCOMPARE(model.headerData(VariantResultsModel::GBps, Qt::Horizontal).toString(),
             QStringLiteral("DRAM GB/s"));
    QCOMPARE(model.headerData(VariantResultsModel::Tflops, Qt::Horizontal).toString(),
             QStringLiteral("Useful TFLOP/s"));
    // One run beside them without counters (a CPU run appended): the rate column mixes sources.
    model.appendRun(cpuRecording(*findPipeline("mlp")).runs.front());
    QCOMPARE(model.headerData(VariantResultsModel::GBps, Qt::Horizontal).toString(),
             QStringLiteral("DRAM GB/s (measured or model)"));
    model.setRecording(*loaded);
    int row = -1;
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, VariantResultsModel::Variant).data().toString() == "lesson_fused")
            row = r;
    QVERIFY(row >= 0);
    const model::VariantResult& lesson = loaded->runs.at(row);
    double dram = 0.0;
    for (const fusescope::KernelResult& kernel : lesson.kernels)
        dram += *model::measured(kernel, &KernelCounters::dramBytesRead) +
                *model::measured(kernel, &KernelCounters::dramBytesWritten);
    QCOMPARE(model.index(row, VariantResultsModel::DramBytes).data().toString(),
             model::formatBytes(quint64(dram)) + QStringLiteral(" measured"));
    QCOMPARE(model.index(row, VariantResultsModel::GBps).data().toString(),
             model::formatGBps(dram / (lesson.timeMs * 1e6)));
    const double share = model.index(row, VariantResultsModel::RooflinePercent)
                             .data(VariantResultsModel::SortRole)
                             .toDouble();
    QVERIFY2(share > 0.0 && share < 1.0, qPrintable(QString::number(share)));
    const QString tflops = model.index(row, VariantResultsModel::Tflops).data().toString();
    double fiveKernelFlops = 0.0;
    for (const model::VariantResult& run : loaded->runs)
        if (run.variant == "unfused") fiveKernelFlops = run.modelFlops;
    QCOMPARE(tflops, QStringLiteral("%1 (%2 executed)")
                         .arg(QString::number(fiveKernelFlops / (lesson.timeMs * 1e9), 'g', 3),
                              QString::number(lesson.modelFlops / (lesson.timeMs * 1e9), 'g', 3)));
    const QString dramTip =
        model.index(row, VariantResultsModel::DramBytes).data(Qt::ToolTipRole).toString();
    QVERIFY(dramTip.contains(QStringLiteral("Re-read from L1/L2")));
    // That recording counted each launch once: nothing is said of moved counts.
    QVERIFY2(!dramTip.contains(QStringLiteral("counted launches")), qPrintable(dramTip));

    // Counted three times, the lesson kernel's DRAM reads moving past 3%: the tooltip names the
    // kernel and its range; the writes, which held still, are not named.
    model::Recording counted = *loaded;
    KernelCounters& lessonCounts = *counted.runs.at(row).kernels.front().counters;
    lessonCounts.countedLaunches = 3;
    lessonCounts.dramReadSpread =
        CountSpread{0.75 * lessonCounts.dramBytesRead, 1.3 * lessonCounts.dramBytesRead};
    lessonCounts.dramWrittenSpread =
        CountSpread{lessonCounts.dramBytesWritten, lessonCounts.dramBytesWritten};
    model.setRecording(counted);
    const QString movedTip =
        model.index(row, VariantResultsModel::DramBytes).data(Qt::ToolTipRole).toString();
    const auto bytes = [](double value) { return model::formatBytes(quint64(value + 0.5)); };
    QVERIFY2(movedTip.contains(QStringLiteral("%1: DRAM reads %2–%3 over 3 counted launches "
                                              "(median %4)")
                                   .arg(model::toQString(lesson.kernels.front().name),
                                        bytes(lessonCounts.dramReadSpread->low),
                                        bytes(lessonCounts.dramReadSpread->high),
                                        bytes(lessonCounts.dramBytesRead))),
             qPrintable(movedTip));
    QVERIFY2(!movedTip.contains(QStringLiteral("DRAM writes")), qPrintable(movedTip));
}

#include "results_model_test.moc"
