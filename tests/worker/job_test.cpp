// Every job kind is superseded and cancelled the same way (one parameterised test over the
// kinds): a newer job of the same kind replaces an older one, queued or running, which then
// delivers nothing; a cancelled job ends with jobCancelled, within half a second while it runs.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include <optional>

#include "pipelines/registry.h"
#include "runtime/runner.h"
#include "support/mlp_tile_configurations.h"
#include "support/timing_slack.h"
#include "worker/cpu_run_estimate.h"
#include "worker/run_controller.h"
#include "worker/run_worker.h"

using namespace fusescope;

namespace {

constexpr int kTimeoutMs = 180000;

RunCommand cpuRun(bool longOne) {
    RunCommand command;
    command.request.pipeline = pipelines().front().name;
    command.request.problem.dimensions["N"] = longOne ? 1u << 22 : 4096;
    command.backend = BackendChoice::Cpu;
    // The most repeats a run may have: only cancelling or superseding ends it in time.
    command.request.repeats = longOne ? kMaxRepeats : 3;
    command.request.warmup = 1;
    return command;
}

SweepCommand cpuSweep(bool longOne) {
    SweepCommand command;
    command.request.pipeline = pipelines().front().name;
    command.request.from = 4096;
    command.request.to = longOne ? 1u << 22 : 8192;
    command.request.repeats = longOne ? kMaxRepeats : 2;
    command.request.warmup = 0;
    command.backend = BackendChoice::Cpu;
    return command;
}

TileRunCommand cpuTileRun(bool longOne) {
    TileRunCommand command;
    command.configuration = testsupport::tinyTileConfiguration();
    command.repeats = longOne ? kMaxRepeats : 2;
    command.warmup = 0;
    command.backend = BackendChoice::Cpu;
    return command;
}

TileSweepCommand cpuTileSweep(bool longOne) {
    TileSweepCommand command;
    command.request.base = testsupport::tinyTileConfiguration();
    command.request.axes = {{"block_n", {16, 32}}};
    command.request.repeats = longOne ? kMaxRepeats : 2;
    command.request.warmup = 0;
    command.request.references = false;
    command.backend = BackendChoice::Cpu;
    return command;
}

// A thread count whose speeds nobody in this process measured yet: its calibration takes its
// quarter of a second.
int unmeasuredThreads() {
    static int next = 1;
    while (cpuSpeedsSettled(next)) ++next;
    return next++;
}

// A request of `kind`: a long one runs until it is cancelled or superseded (empty where the
// kind has no long form here: a tile report without a GPU is the model's, at once).
std::optional<JobRequest> requestOf(JobKind kind, bool longOne) {
    switch (kind) {
        case JobKind::Run:
            return cpuRun(longOne);
        case JobKind::Sweep:
            return cpuSweep(longOne);
        case JobKind::TileRun:
            return cpuTileRun(longOne);
        case JobKind::TileSweep:
            return cpuTileSweep(longOne);
        case JobKind::TileReport:
            if (longOne) return std::nullopt;
            return TileReportCommand{testsupport::tinyTileConfiguration()};
        case JobKind::Calibration:
            return CalibrationCommand{unmeasuredThreads()};
        case JobKind::Probe:
            if (longOne) return std::nullopt;
            return ProbeCommand{};
        case JobKind::SelfTest:
            break;
    }
    return std::nullopt;
}

// The signals of one job among those a spy caught.
QList<QList<QVariant>> of(const QSignalSpy& spy, JobId id) {
    QList<QList<QVariant>> found;
    for (const QList<QVariant>& signal : spy)
        if (signal.at(0).value<JobId>() == id) found << signal;
    return found;
}

// Every signal of the job layer (the worker's or the controller's: the same five), caught.
struct JobSpies {
    template <typename Source>
    explicit JobSpies(Source* source)
        : started(source, &Source::jobStarted),
          progress(source, &Source::jobProgress),
          finished(source, &Source::jobFinished),
          failed(source, &Source::jobFailed),
          cancelled(source, &Source::jobCancelled) {}

    int signalsOf(JobId id) const {
        return static_cast<int>(of(started, id).size() + of(progress, id).size() + endsOf(id));
    }
    int endsOf(JobId id) const {
        return static_cast<int>(of(finished, id).size() + of(failed, id).size() +
                                of(cancelled, id).size());
    }
    bool waitForEnd(JobId id, int timeoutMs) {
        QElapsedTimer waited;
        waited.start();
        while (endsOf(id) == 0 && waited.elapsed() < timeoutMs) QTest::qWait(5);
        return endsOf(id) > 0;
    }
    bool waitForStart(JobId id, int timeoutMs) {
        QElapsedTimer waited;
        waited.start();
        while (of(started, id).isEmpty() && endsOf(id) == 0 && waited.elapsed() < timeoutMs)
            QTest::qWait(5);
        return !of(started, id).isEmpty();
    }
    QString failure(JobId id) const {
        const auto found = of(failed, id);
        return found.isEmpty() ? QString() : found.first().at(2).toString();
    }

    QSignalSpy started, progress, finished, failed, cancelled;
};

void addKinds(bool onlyLong) {
    QTest::addColumn<JobKind>("kind");
    const std::pair<const char*, JobKind> kinds[] = {
        {"run", JobKind::Run},
        {"sweep", JobKind::Sweep},
        {"tile run", JobKind::TileRun},
        {"tile sweep", JobKind::TileSweep},
        {"tile report", JobKind::TileReport},
        {"calibration", JobKind::Calibration},
        {"probe", JobKind::Probe},
    };
    for (const auto& [name, kind] : kinds)
        if (!onlyLong || requestOf(kind, true)) QTest::newRow(name) << kind;
}

}  // namespace

class JobTest : public QObject {
    Q_OBJECT
  private slots:
    void aQueuedJobThatANewerOneReplacesDeliversNothing_data() { addKinds(false); }
    void aQueuedJobThatANewerOneReplacesDeliversNothing();
    void aJobCancelledWhileQueuedEndsCancelledWithoutStarting_data() { addKinds(false); }
    void aJobCancelledWhileQueuedEndsCancelledWithoutStarting();
    void aRunningJobThatANewerOneReplacesDeliversNothing_data() { addKinds(true); }
    void aRunningJobThatANewerOneReplacesDeliversNothing();
    void aRunningJobStopsWithinHalfASecondOfCancel_data() { addKinds(true); }
    void aRunningJobStopsWithinHalfASecondOfCancel();
    void kindsOfOneLaneSupersedeEachOtherAndOthersDoNot();
};

// The worker as it sees queued jobs: called directly on this thread, in the order the queue
// would deliver them after two requests.
void JobTest::aQueuedJobThatANewerOneReplacesDeliversNothing() {
    QFETCH(JobKind, kind);
    RunWorker worker;
    JobSpies spies(&worker);
    const JobId older = worker.jobs().start(kind);
    const JobId newer = worker.jobs().start(kind);
    worker.execute(older, *requestOf(kind, false));
    worker.execute(newer, *requestOf(kind, false));
    const bool unsuperseded = !JobTracker::shareLane(kind, kind);
    QCOMPARE(spies.signalsOf(older) > 0, unsuperseded);  // probes are never superseded
    QVERIFY2(spies.failure(newer).isEmpty(), qPrintable(spies.failure(newer)));
    QCOMPARE(of(spies.finished, newer).size(), 1);
    QCOMPARE(spies.endsOf(newer), 1);
    QCOMPARE(of(spies.finished, newer).first().at(1).value<JobKind>(), kind);
}

void JobTest::aJobCancelledWhileQueuedEndsCancelledWithoutStarting() {
    QFETCH(JobKind, kind);
    RunWorker worker;
    JobSpies spies(&worker);
    const JobId id = worker.jobs().start(kind);
    worker.jobs().cancel(id);
    worker.execute(id, *requestOf(kind, false));
    QCOMPARE(of(spies.cancelled, id).size(), 1);
    QCOMPARE(spies.endsOf(id), 1);
    QVERIFY(of(spies.started, id).isEmpty());
    QCOMPARE(of(spies.cancelled, id).first().at(1).value<JobKind>(), kind);
}

// Through the controller, as the views ask: the older job is running when the newer arrives.
void JobTest::aRunningJobThatANewerOneReplacesDeliversNothing() {
    QFETCH(JobKind, kind);
    RunController controller;
    JobSpies spies(&controller);
    const JobId older = controller.start(*requestOf(kind, true));
    QVERIFY(spies.waitForStart(older, kTimeoutMs));
    const JobId newer = controller.start(*requestOf(kind, false));
    QVERIFY(spies.waitForEnd(newer, kTimeoutMs));
    QVERIFY2(spies.failure(newer).isEmpty(), qPrintable(spies.failure(newer)));
    QCOMPARE(of(spies.finished, newer).size(), 1);
    // The older job's end, had it sent one, would have come before the newer job's.
    QTest::qWait(50);
    QCOMPARE(spies.endsOf(older), 0);
    QCOMPARE(controller.activeJob(kind), JobId{0});
}

void JobTest::aRunningJobStopsWithinHalfASecondOfCancel() {
    QFETCH(JobKind, kind);
    RunController controller;
    JobSpies spies(&controller);
    const JobId id = controller.start(*requestOf(kind, true));
    QVERIFY(spies.waitForStart(id, kTimeoutMs));
    QCOMPARE(controller.activeJob(kind), id);
    // Past its start, well inside the work (a calibration on 16 cores takes under 100 ms).
    QTest::qWait(10);
    QCOMPARE(spies.endsOf(id), 0);
    QElapsedTimer elapsed;
    elapsed.start();
    controller.cancel(id);
    QVERIFY(spies.waitForEnd(id, kTimeoutMs));
    const qint64 ms = elapsed.elapsed();
    QCOMPARE(of(spies.cancelled, id).size(), 1);
    QCOMPARE(spies.endsOf(id), 1);
    QVERIFY2(ms < 500 * testsupport::timingSlack(), qPrintable(QStringLiteral("%1 ms").arg(ms)));
    QCOMPARE(controller.activeJob(kind), JobId{0});
    qInfo("cancelled after %lld ms", static_cast<long long>(ms));
}

void JobTest::kindsOfOneLaneSupersedeEachOtherAndOthersDoNot() {
    // One device: a run, a sweep, a tile run and a tile sweep replace each other, as before jobs.
    for (const JobKind a : {JobKind::Run, JobKind::Sweep, JobKind::TileRun, JobKind::TileSweep})
        for (const JobKind b : {JobKind::Run, JobKind::Sweep, JobKind::TileRun, JobKind::TileSweep})
            QVERIFY(JobTracker::shareLane(a, b));
    // A report, a calibration or a probe leaves a run in flight alone.
    for (const JobKind other : {JobKind::TileReport, JobKind::Calibration, JobKind::Probe})
        QVERIFY(!JobTracker::shareLane(JobKind::Run, other));
    JobTracker tracker;
    const JobId run = tracker.start(JobKind::Run);
    tracker.start(JobKind::TileReport);
    tracker.start(JobKind::Calibration);
    QVERIFY(!tracker.isStale(run, JobKind::Run));
    tracker.cancel(JobKind::TileReport);
    QVERIFY(!tracker.isCancelled(run, JobKind::Run));
    tracker.start(JobKind::Sweep);
    QVERIFY(tracker.isStale(run, JobKind::Run));
}

QTEST_GUILESS_MAIN(JobTest)
#include "job_test.moc"
