// The worker on its own thread, driven as the UI drives it, on the CPU backend.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <memory>
#include <optional>

#include "fakes/fake_counter_provider.h"
#include "model/measured_counts.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "support/timing_slack.h"
#include "worker/cpu_run_estimate.h"
#include "worker/run_controller.h"
#include "worker/run_worker.h"
#include "worker/worker_observers.h"
#include "worker_on_thread.h"

using namespace fusescope;

namespace {

constexpr int kRunTimeoutMs = 120000;

RunCommand smallCpuCommand() {
    RunCommand command;
    command.request.pipeline = pipelines().front().name;
    command.request.problem.dimensions["N"] = 4096;
    command.request.target.backend = BackendChoice::Cpu;
    command.request.settings.repeats = 3;
    command.request.settings.warmup = 1;
    return command;
}

// The small run on another backend, and on a chosen GPU where `cudaDevice` is set.
RunCommand smallCommandOn(BackendChoice backend, std::optional<int> cudaDevice = std::nullopt) {
    RunCommand command = smallCpuCommand();
    command.request.target = {backend, cudaDevice};
    return command;
}

// A run long enough that only cancelling or superseding ends it in the test's time (the copy
// roofline alone takes the most repeats a run may have: 100,000 copies of 16 MiB).
RunCommand longCpuCommand() {
    RunCommand command = smallCpuCommand();
    command.request.problem.dimensions["N"] = 1u << 22;
    command.request.settings.repeats = kMaxRepeats;
    return command;
}

// The stage a progress signal names: the controller's (fraction, stage) or a job's JobStage.
QString stageOf(const QList<QVariant>& signal) {
    if (signal.size() == 2) return signal.at(1).toString();
    return signal.at(2).value<JobStage>().stage;
}

// Waits until a progress signal whose stage contains `word` has arrived.
bool waitForStage(QSignalSpy& spy, const QString& word) {
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < kRunTimeoutMs) {
        for (const QList<QVariant>& signal : spy)
            if (stageOf(signal).contains(word)) return true;
        spy.wait(200);
    }
    return false;
}

// Cancels the controller's job: the milliseconds until the cancel was confirmed on `cancelled`,
// or -1 when it was not within `waitMs`.
qint64 cancelConfirmedAfterMs(RunController& controller, QSignalSpy& cancelled, int waitMs) {
    QElapsedTimer latency;
    latency.start();
    controller.cancel();
    return cancelled.wait(waitMs) ? latency.elapsed() : -1;
}

// A cancel made once a run reached a stage: how long the worker took to confirm it (-1: the stage
// never came, or no confirmation in time) and whether the run finished all the same.
struct CancelOutcome {
    qint64 confirmedAfterMs = -1;
    bool finished = false;
};

// Submits the command and cancels `settleMs` after a progress signal names `stage`.
CancelOutcome cancelAtStage(RunController& controller, const RunCommand& command,
                            const QString& stage, unsigned long settleMs, int waitMs) {
    QSignalSpy progress(&controller, &RunController::progress);
    QSignalSpy cancelled(&controller, &RunController::cancelled);
    QSignalSpy finished(&controller, &RunController::runFinished);
    controller.submit(command);
    if (!waitForStage(progress, stage)) return {};
    QThread::msleep(settleMs);
    const qint64 ms = cancelConfirmedAfterMs(controller, cancelled, waitMs);
    qInfo("cancel at stage '%s' took %lld ms", qPrintable(stage), static_cast<long long>(ms));
    return {ms, !finished.isEmpty()};
}

// Whether the cancel was confirmed in under `limitMs`; the message says how long it took.
bool confirmedWithin(const CancelOutcome& cancel, double limitMs) {
    return cancel.confirmedAfterMs >= 0 && cancel.confirmedAfterMs < limitMs;
}

QByteArray took(const CancelOutcome& cancel) {
    return QStringLiteral("cancel took %1 ms (-1: not confirmed)")
        .arg(cancel.confirmedAfterMs)
        .toUtf8();
}

}  // namespace

class RunWorkerTest : public QObject {
    Q_OBJECT
  private slots:
    void smallCpuRunEmitsProgressAndFinished();
    void progressIsThrottled();
    void cancelStopsALongRunWithinASecond();
    void cancelInsideALongCpuGemmTakesUnderHalfASecond();
    void quittingDuringACpuGemmEndsTheWorkerWithinTwoSeconds();
    void supersededRequestsDeliverNothing();
    void autoBackendSaysWhichBackendRuns();
    void cudaWithoutAGpuFailsWithTheReason();
    void aChosenGpuThatIsNotThereIsRefusedWithTheReason();
    void theChosenGpuRunsAndIsRecorded();
    void probeDescribesTheCpu();
    void cpuSpeedsAreMeasuredOnTheWorkerThread();
    void measuredRunOnCpuSaysWhyThereAreNoCounters();
    void sampleBatchesAreGatheredAndNoneIsLost();
};

void RunWorkerTest::smallCpuRunEmitsProgressAndFinished() {
    RunController controller;
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy progress(&controller, &RunController::progress);
    QSignalSpy variants(&controller, &RunController::variantFinished);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    const RunCommand command = smallCpuCommand();
    controller.submit(command);
    QVERIFY(controller.isRunning());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QVERIFY(!controller.isRunning());
    QCOMPARE(started.count(), 1);

    QVERIFY(!progress.isEmpty());
    double previous = -1.0;
    for (const QList<QVariant>& signal : progress) {
        const double fraction = signal.at(0).toDouble();
        QVERIFY(fraction >= 0.0 && fraction <= 1.0);
        QVERIFY2(fraction >= previous, "progress went backwards");
        previous = fraction;
    }
    QCOMPARE(progress.last().at(0).toDouble(), 1.0);

    const std::size_t variantCount = pipelines().front().variants.size();
    QCOMPARE(static_cast<std::size_t>(variants.count()), variantCount);
    const auto recording = finished.first().first().value<model::Recording>();
    QCOMPARE(static_cast<std::size_t>(recording.runs.size()), variantCount);
    QCOMPARE(recording.device.backend, fusescope::BackendKind::Cpu);
    QVERIFY(recording.roofline.timeMs > 0.0);
    for (const model::VariantResult& run : recording.runs) {
        QCOMPARE(run.problem.dimension("N"), command.request.problem.dimension("N"));
        QVERIFY2(run.check.ok, run.variant.c_str());
        QCOMPARE(run.repeatTimesMs.size(), command.request.settings.repeats);
        QVERIFY(run.timeMs > 0.0);
        QCOMPARE(run.timingSource, MeasurementSource::CpuBackend);
    }
    // The streamed variants are the same values as the final recording's.
    for (int i = 0; i < variants.count(); ++i)
        QCOMPARE(variants.at(i).first().value<model::VariantResult>().variant,
                 recording.runs.at(i).variant);
}

void RunWorkerTest::progressIsThrottled() {
    RunController controller;
    QSignalSpy progress(&controller, &RunController::progress);
    QSignalSpy finished(&controller, &RunController::runFinished);
    RunCommand command = smallCpuCommand();
    // Thousands of runner progress calls in about a second. (At N = 16384 the run took 0.04 s
    // once the copy roofline stopped paying for threads it did not need: too short to throttle.)
    command.request.problem.dimensions["N"] = 1u << 18;
    command.request.settings.repeats = 3000;
    QElapsedTimer elapsed;
    elapsed.start();
    controller.submit(command);
    QVERIFY(finished.wait(kRunTimeoutMs));
    const double seconds = elapsed.elapsed() / 1000.0;
    // Stage changes always pass: a few per run and three per variant (allocate, check, time).
    const double stageChanges = 4 + 3.0 * pipelines().front().variants.size();
    const double allowed = seconds * (1000.0 / RunWorker::kProgressIntervalMs) + stageChanges;
    qInfo("%lld progress signals in %.2f s (at most %.0f allowed)",
          static_cast<long long>(progress.count()), seconds, allowed);
    QVERIFY(progress.count() >= 1);
    QVERIFY(progress.count() <= allowed);
}

void RunWorkerTest::cancelStopsALongRunWithinASecond() {
    RunController controller;
    const CancelOutcome cancel =
        cancelAtStage(controller, longCpuCommand(), QStringLiteral("roofline"), 0, 5000);
    QVERIFY2(confirmedWithin(cancel, 1000), took(cancel).constData());
    QVERIFY(!cancel.finished);
    QVERIFY(!controller.isRunning());

    // The worker takes the next request after a cancel.
    QSignalSpy finished(&controller, &RunController::runFinished);
    controller.submit(smallCpuCommand());
    QVERIFY(finished.wait(kRunTimeoutMs));
}

namespace {

// The unfused MLP's first GEMM here is 2 x 512 x 4096 x 2048 = 8.6 GFLOP: seconds on the CPU, so
// the run is inside it once its checked run has begun.
RunCommand longCpuGemmCommand() {
    RunCommand command;
    command.request.pipeline = "mlp";
    command.request.variants = {"unfused"};
    command.request.problem.dimensions = {{"M", 512}, {"H", 2048}, {"I", 4096}};
    command.request.settings.repeats = 1;
    command.request.settings.warmup = 0;
    command.request.roofs = false;
    command.request.target.backend = BackendChoice::Cpu;
    return command;
}

}  // namespace

void RunWorkerTest::cancelInsideALongCpuGemmTakesUnderHalfASecond() {
    RunController controller;
    // 300 ms past the checked run's start: well inside the GEMM.
    const CancelOutcome cancel =
        cancelAtStage(controller, longCpuGemmCommand(), QStringLiteral("checking"), 300, 30000);
    QVERIFY2(confirmedWithin(cancel, 500 * testsupport::timingSlack()), took(cancel).constData());
    QVERIFY(!cancel.finished);
}

// What the window does on Ctrl+Q or close: the controller goes, which must stop the worker inside
// the kernel and join its thread, so that the process can exit.
void RunWorkerTest::quittingDuringACpuGemmEndsTheWorkerWithinTwoSeconds() {
    auto controller = std::make_unique<RunController>();
    QSignalSpy progress(controller.get(), &RunController::progress);
    controller->submit(longCpuGemmCommand());
    QVERIFY(waitForStage(progress, QStringLiteral("checking")));
    QThread::msleep(300);

    QElapsedTimer latency;
    latency.start();
    controller.reset();
    const qint64 ms = latency.elapsed();
    qInfo("quitting during the GEMM took %lld ms", static_cast<long long>(ms));
    QVERIFY2(ms < 2000 * testsupport::timingSlack(),
             qPrintable(QStringLiteral("quitting took %1 ms").arg(ms)));
}

void RunWorkerTest::supersededRequestsDeliverNothing() {
    // The worker itself, not the controller's filter: stale generations must emit nothing.
    const testing_support::WorkerOnThread onThread;
    RunWorker* worker = onThread.worker();
    QSignalSpy progress(worker, &RunWorker::jobProgress);
    QSignalSpy finished(worker, &RunWorker::jobFinished);
    QSignalSpy cancelled(worker, &RunWorker::jobCancelled);
    QSignalSpy failed(worker, &RunWorker::jobFailed);

    const auto post = [worker](const RunCommand& command) { return worker->enqueue(command); };
    const JobId inFlight = post(longCpuCommand());
    QVERIFY(waitForStage(progress, QStringLiteral("roofline")));
    // While the first runs, two more arrive: the middle one is still queued when the third
    // supersedes it, so it never runs; the first stops at its next check.
    RunCommand queued = smallCpuCommand();
    queued.request.problem.dimensions["N"] = 3000;
    const JobId skipped = post(queued);
    RunCommand newest = smallCpuCommand();
    newest.request.problem.dimensions["N"] = 5000;
    QElapsedTimer elapsed;
    elapsed.start();
    const JobId latest = post(newest);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY(inFlight < skipped && skipped < latest);

    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(0).value<JobId>(), latest);
    const auto recording = finished.first().at(2).value<model::Recording>();
    for (const model::VariantResult& run : recording.runs)
        QCOMPARE(run.problem.dimension("N"), newest.request.problem.dimension("N"));
    int variants = 0;
    for (const QList<QVariant>& signal : progress) {
        const QVariant update = signal.at(2);
        if (update.metaType() != QMetaType::fromType<model::VariantResult>()) continue;
        ++variants;
        QCOMPARE(signal.at(0).value<JobId>(), latest);
        QCOMPARE(update.value<model::VariantResult>().problem.dimension("N"),
                 newest.request.problem.dimension("N"));
    }
    QVERIFY(variants > 0);
    QVERIFY(cancelled.isEmpty());
    QVERIFY(failed.isEmpty());
    qInfo("superseded run gave way and the newest finished in %lld ms",
          static_cast<long long>(elapsed.elapsed()));
}

void RunWorkerTest::autoBackendSaysWhichBackendRuns() {
    RunController controller;
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    controller.submit(smallCommandOn(BackendChoice::Auto));
    QVERIFY(finished.wait(kRunTimeoutMs) || !failed.isEmpty());
    QCOMPARE(started.count(), 1);
    const QString note = started.first().first().toString();
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable) {
        QVERIFY2(note.contains(QStringLiteral("GPU")), qPrintable(note));
    } else {
        QVERIFY2(note.contains(QStringLiteral("CPU")), qPrintable(note));
        QVERIFY2(note.contains(QString::fromStdString(availability.cudaReason)), qPrintable(note));
        QCOMPARE(finished.first().first().value<model::Recording>().device.backend,
                 BackendKind::Cpu);
    }
}

void RunWorkerTest::cudaWithoutAGpuFailsWithTheReason() {
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable)
        QSKIP("a usable GPU is present: this test is for machines without");
    RunController controller;
    QSignalSpy failed(&controller, &RunController::runFailed);
    controller.submit(smallCommandOn(BackendChoice::Cuda));
    QVERIFY(failed.wait(30000));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(QString::fromStdString(availability.cudaReason)),
             qPrintable(message));
    QVERIFY(!controller.isRunning());
}

// The GPU a command names reaches the worker, which refuses one that is not there (or any, with
// no usable GPU) before running anything, for runs and sweeps; auto does not fall back.
void RunWorkerTest::aChosenGpuThatIsNotThereIsRefusedWithTheReason() {
    Result<std::vector<std::string>> names = cudaDeviceNames();
    const int missing = names ? static_cast<int>(names->size()) : 1;
    const QString expected = names ? QStringLiteral("there is no GPU %1").arg(missing)
                                   : QString::fromStdString(probeBackends().cudaReason);
    RunController controller;
    QSignalSpy failed(&controller, &RunController::runFailed);
    QSignalSpy started(&controller, &RunController::runStarted);
    controller.submit(smallCommandOn(BackendChoice::Auto, missing));
    QVERIFY(failed.wait(30000));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(QStringLiteral("GPU %1").arg(missing)), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY(started.isEmpty());

    QSignalSpy sweepFailed(&controller, &RunController::sweepFailed);
    SweepCommand sweep;
    sweep.request.pipeline = "affine";
    sweep.request.from = 4096;
    sweep.request.to = 8192;
    sweep.request.target.backend = BackendChoice::Auto;
    sweep.request.target.cudaDevice = missing;
    controller.submitSweep(sweep);
    QVERIFY(sweepFailed.wait(30000));
    QVERIFY2(sweepFailed.first().first().toString().contains(expected),
             qPrintable(sweepFailed.first().first().toString()));
}

// On a host with GPUs (the H200 machine): the last GPU runs and the recording names it.
void RunWorkerTest::theChosenGpuRunsAndIsRecorded() {
    Result<std::vector<std::string>> names = cudaDeviceNames();
    if (!names) QSKIP("no usable GPU here: the refusal is tested instead");
    const int last = static_cast<int>(names->size()) - 1;
    RunController controller;
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy failed(&controller, &RunController::runFailed);
    RunCommand command = smallCommandOn(BackendChoice::Cuda, last);
    command.measure.reset();
    controller.submit(command);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY2(failed.isEmpty(),
             qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
    const auto recording = finished.first().first().value<model::Recording>();
    QCOMPARE(recording.device.backend, fusescope::BackendKind::Cuda);
    QCOMPARE(recording.device.deviceIndex, last);
    QCOMPARE(recording.device.name, (*names)[last]);
}

void RunWorkerTest::probeDescribesTheCpu() {
    RunController controller;
    QSignalSpy probed(&controller, &RunController::backendsProbed);
    controller.probe();
    QVERIFY(probed.wait(30000));
    const auto summary = probed.first().first().value<BackendSummary>();
    QVERIFY(!summary.cpuName.isEmpty());
    QVERIFY(summary.cpuThreads >= 1);
    QCOMPARE(summary.cudaUsable, probeBackends().cudaUsable);
    if (!summary.cudaUsable) QVERIFY(!summary.cudaReason.isEmpty());
}

// The run estimate's calibration (a quarter of a second or more) ran on the UI thread.
void RunWorkerTest::cpuSpeedsAreMeasuredOnTheWorkerThread() {
    constexpr int kThreads = 3;  // a count nothing else here measures
    QVERIFY(!knownCpuSpeeds(kThreads));
    RunController controller;
    QSignalSpy measured(&controller, &RunController::cpuSpeedsMeasured);
    QElapsedTimer asking;
    asking.start();
    controller.measureCpuSpeeds(kThreads);
    const qint64 askingMs = asking.elapsed();
    QVERIFY(!cpuSpeedsSettled(kThreads));  // asked, not measured here
    // This thread's events go on meanwhile.
    int ticks = 0;
    QTimer tick;
    connect(&tick, &QTimer::timeout, &tick, [&ticks] { ++ticks; });
    tick.start(10);
    QVERIFY(measured.wait(30000));
    QCOMPARE(measured.first().at(0).toInt(), kThreads);
    QVERIFY2(askingMs < 50, qPrintable(QString::number(askingMs)));
    QVERIFY2(ticks >= 3, qPrintable(QString::number(ticks)));
    const std::optional<MachineSpeeds> speeds = knownCpuSpeeds(kThreads);
    QVERIFY(speeds);
    QVERIFY(speeds->flopsPerSecond > 0.0);
    QCOMPARE(speeds->threads, kThreads);
    // Asked again, the worker answers from what it measured.
    measured.clear();
    controller.measureCpuSpeeds(kThreads);
    QVERIFY(measured.wait(5000));
}

void RunWorkerTest::measuredRunOnCpuSaysWhyThereAreNoCounters() {
    // The measured path (runMeasured with a provider created on the worker thread) forced on
    // the CPU backend: the run still finishes, and the recording says in words why it has no
    // counters instead of holding zeros.
    int providersMade = 0;
    const testing_support::WorkerOnThread onThread([&providersMade](RunWorker& worker) {
        worker.setCounterProviderFactory(
            [&providersMade] {
                ++providersMade;
                return std::make_unique<FakeCounterProvider>();
            },
            true);
    });
    RunWorker* worker = onThread.worker();
    QSignalSpy finished(worker, &RunWorker::jobFinished);
    QSignalSpy failed(worker, &RunWorker::jobFailed);
    worker->enqueue(smallCpuCommand());
    QVERIFY(finished.wait(kRunTimeoutMs) || !failed.isEmpty());
    QVERIFY(failed.isEmpty());
    QCOMPARE(providersMade, 1);
    const auto recording = finished.first().at(2).value<model::Recording>();
    QVERIFY2(!recording.counterStatus.empty(), "no reason given for the missing counters");
    for (const model::VariantResult& run : recording.runs) {
        QVERIFY(!run.countersSource.has_value());
        QVERIFY(run.samples.empty());
        for (const fusescope::KernelResult& kernel : run.kernels)
            QVERIFY(!model::measured(kernel, &KernelCounters::dramBytesRead));
    }
}

void RunWorkerTest::sampleBatchesAreGatheredAndNoneIsLost() {
    // The runner hands over samples in small batches (every few ms on the GPU); the observer
    // gathers them so the UI thread gets a bounded number of signals, and loses none.
    RunWorker worker;
    QSignalSpy batches(&worker, &RunWorker::jobProgress);
    const JobContext job(worker, worker.jobs().start(JobKind::Run), JobKind::Run);
    WorkerRunObserver observer(job);
    constexpr int kBatches = 20000;
    QElapsedTimer elapsed;
    elapsed.start();
    for (int i = 0; i < kBatches; ++i) {
        const BandwidthSample sample{i * 10'000LL, (i + 1) * 10'000LL, 1e11, 5e10};
        const TimelineSpan span{TimelineSpan::Kind::Kernel, "k", i * 10'000LL, i * 10'000LL + 5, 0};
        observer.samplesArrived(i < kBatches / 2 ? "first" : "second", {&sample, 1}, {&span, 1});
    }
    observer.flushSamples();
    const double seconds = elapsed.elapsed() / 1000.0;
    int samples = 0;
    int spans = 0;
    QStringList variants;
    for (const QList<QVariant>& signal : batches) {
        const auto batch = signal.at(2).value<SampleBatch>();
        if (variants.isEmpty() || variants.last() != batch.variant) variants << batch.variant;
        samples += batch.samples.size();
        spans += batch.spans.size();
    }
    QCOMPARE(samples, kBatches);
    QCOMPARE(spans, kBatches);
    QCOMPARE(variants, QStringList({"first", "second"}));  // a batch never mixes variants
    const double allowed = seconds * (1000.0 / RunWorker::kProgressIntervalMs) + 4;
    qInfo("%lld signals for %d batches in %.3f s", static_cast<long long>(batches.count()),
          kBatches, seconds);
    QVERIFY(batches.count() <= allowed);
    const auto first = batches.first().at(2).value<SampleBatch>().samples.front();
    QCOMPARE(first.startNs, qint64{0});
    QCOMPARE(first.endNs, qint64{10'000});
    QCOMPARE(first.readBytesPerSecond, 1e6 / 1e-5);

    // A newer request makes this observer stale: nothing more goes out.
    worker.jobs().start(JobKind::Run);
    const qsizetype before = batches.count();
    const BandwidthSample late{0, 10, 1.0, 1.0};
    observer.samplesArrived("first", {&late, 1}, {});
    observer.flushSamples();
    QCOMPARE(batches.count(), before);
}

QTEST_GUILESS_MAIN(RunWorkerTest)
#include "run_worker_test.moc"
