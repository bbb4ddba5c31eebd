// The worker's size sweep on the CPU backend, driven through the controller as the UI drives it:
// points stream in as they are measured, the end brings a fit (or says why there is none), and
// cancel stops a long sweep quickly.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include <set>

#include "pipelines/registry.h"
#include "worker/run_controller.h"

using namespace fusescope;

namespace {

constexpr int kSweepTimeoutMs = 180000;

SweepCommand tinyCpuSweep() {
    SweepCommand command;
    command.request.pipeline = pipelines().front().name;
    command.request.from = 4096;
    command.request.to = 32768;  // 4 sizes at one step per octave
    command.request.stepsPerOctave = 1;
    command.request.target.backend = BackendChoice::Cpu;
    command.request.settings.repeats = 3;
    command.request.settings.warmup = 1;
    return command;
}

}  // namespace

class SweepWorkerTest : public QObject {
    Q_OBJECT
  private slots:
    void cpuSweepStreamsPointsAndEndsWithAFit();
    void cancelStopsALongSweepWithinASecond();
    void badRangeFailsWithAReadableMessage();
};

void SweepWorkerTest::cpuSweepStreamsPointsAndEndsWithAFit() {
    RunController controller;
    QSignalSpy started(&controller, &RunController::sweepStarted);
    QSignalSpy progress(&controller, &RunController::sweepProgress);
    QSignalSpy points(&controller, &RunController::sweepPointMeasured);
    QSignalSpy finished(&controller, &RunController::sweepFinished);
    QSignalSpy failed(&controller, &RunController::sweepFailed);
    QSignalSpy runFinished(&controller, &RunController::runFinished);
    const SweepCommand command = tinyCpuSweep();
    controller.submitSweep(command);
    QVERIFY(controller.isRunning());
    QVERIFY(controller.isSweeping());
    QVERIFY(finished.wait(kSweepTimeoutMs));
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QVERIFY(!controller.isRunning());
    QCOMPARE(started.count(), 1);
    QVERIFY(!progress.isEmpty());
    QVERIFY(runFinished.isEmpty());  // a sweep never looks like a run to the views

    const auto outcome = finished.first().first().value<SweepOutcome>();
    const SweepReport& report = outcome.report;
    const std::size_t variants = pipelines().front().variants.size();
    QCOMPARE(report.series.size(), variants);
    QCOMPARE(report.sizes.size(), std::size_t{4});
    QCOMPARE(report.sizes.front(), command.request.from);
    QCOMPARE(report.sizes.back(), command.request.to);
    QCOMPARE(outcome.request.stepsPerOctave, command.request.stepsPerOctave);

    // Every point was streamed before the end, one per variant and size, with the same numbers
    // the report holds.
    QCOMPARE(static_cast<std::size_t>(points.count()), variants * report.sizes.size());
    std::set<std::pair<QString, quint64>> streamed;
    for (const QList<QVariant>& signal : points) {
        const auto update = signal.first().value<SweepPointUpdate>();
        QVERIFY(update.point.timeMs > 0.0);
        QVERIFY(update.launches >= 1);
        streamed.insert({update.variant, update.point.n});
        for (const SweepSeries& series : report.series)
            if (QString::fromStdString(series.variant) == update.variant)
                for (const SweepPoint& point : series.points)
                    if (point.n == update.point.n) {
                        QCOMPARE(update.point.timeMs, point.timeMs);
                        QCOMPARE(update.point.bytes, point.bytes);
                    }
    }
    QCOMPARE(streamed.size(), variants * report.sizes.size());

    for (const SweepSeries& series : report.series) {
        QCOMPARE(series.points.size(), report.sizes.size());
        for (const SweepPoint& point : series.points)
            QVERIFY2(point.checkOk, series.variant.c_str());
        // A fit with a positive bandwidth, or the reason in words: never neither.
        if (series.fit)
            QVERIFY(series.fit->bandwidthGBps > 0.0);
        else
            QVERIFY2(!series.fitError.empty(), series.variant.c_str());
        qInfo("%s: %s", series.variant.c_str(),
              series.fit ? qPrintable(QStringLiteral("%1 GB/s, overhead %2 us")
                                          .arg(series.fit->bandwidthGBps)
                                          .arg(series.fit->overheadUs))
                         : series.fitError.c_str());
    }
}

void SweepWorkerTest::cancelStopsALongSweepWithinASecond() {
    RunController controller;
    QSignalSpy points(&controller, &RunController::sweepPointMeasured);
    QSignalSpy cancelled(&controller, &RunController::sweepCancelled);
    QSignalSpy finished(&controller, &RunController::sweepFinished);
    SweepCommand command = tinyCpuSweep();
    command.request.to = 1u << 22;
    command.request.settings.repeats =
        100000;  // minutes of work: only cancel ends it in the test's time
    controller.submitSweep(command);
    QSignalSpy progress(&controller, &RunController::sweepProgress);
    QVERIFY(progress.wait(30000));

    QElapsedTimer latency;
    latency.start();
    controller.cancel();
    QVERIFY(cancelled.wait(5000));
    const qint64 ms = latency.elapsed();
    qInfo("sweep cancel took %lld ms", static_cast<long long>(ms));
    QVERIFY2(ms < 1000, qPrintable(QStringLiteral("cancel took %1 ms").arg(ms)));
    QVERIFY(finished.isEmpty());
    QVERIFY(!controller.isRunning());

    // The worker takes the next sweep after a cancel.
    controller.submitSweep(tinyCpuSweep());
    QVERIFY(finished.wait(kSweepTimeoutMs));
}

void SweepWorkerTest::badRangeFailsWithAReadableMessage() {
    RunController controller;
    QSignalSpy failed(&controller, &RunController::sweepFailed);
    SweepCommand command = tinyCpuSweep();
    command.request.from = 0;
    controller.submitSweep(command);
    QVERIFY(failed.wait(30000));
    const QString message = failed.first().first().toString();
    QVERIFY2(!message.isEmpty(), "no message");
    qInfo("%s", qPrintable(message));
    QVERIFY(!controller.isRunning());
}

QTEST_GUILESS_MAIN(SweepWorkerTest)
#include "sweep_worker_test.moc"
