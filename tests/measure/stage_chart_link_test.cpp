// The memory stage and the live bandwidth chart move together (offscreen): seeking the stage
// moves the chart's cursor to the run-clock time; a click or drag on the chart seeks the stage
// there at once; cursor moves are coalesced to one redraw per frame.
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include "live/live_bandwidth_chart.h"
#include "live/live_plot.h"
#include "live/live_recording_feed.h"
#include "live/stage_chart_link.h"
#include "stage_test_runs.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/stage/stage_player.h"

using namespace fusescope;
using fusescope::live::LiveBandwidthChart;
using fusescope::live::StageChartLink;

namespace {

// A run whose kernels sit on a device timeline starting at firstKernelNs (kernelNs each, 20 us
// apart), with 10 us PM samples over it: the clock the chart draws and the stage maps to.
model::VariantResult timedRun(const QString& variant, qint64 firstKernelNs, qint64 kernelNs) {
    model::VariantResult run =
        stagetest::syntheticRun(QStringLiteral("swiglu"), variant, 1 << 20, kernelNs * 1e-6);
    qint64 start = firstKernelNs;
    for (const fusescope::KernelResult& kernel : run.kernels) {
        fusescope::TimelineSpan span;
        span.kind = fusescope::TimelineSpan::Kind::Kernel;
        span.name = kernel.name;
        span.startNs = start;
        span.endNs = start + kernelNs;
        run.timeline.push_back(span);
        start = span.endNs + 20'000;
    }
    for (qint64 t = firstKernelNs - 100'000; t < start + 100'000; t += 10'000) {
        BandwidthSample sample;
        sample.startNs = t;
        sample.endNs = t + 10'000;
        sample.readBytesPerSecond = 2e12;
        sample.writeBytesPerSecond = 1e12;
        run.samples.push_back(sample);
    }
    return run;
}

constexpr qint64 kScratchStartNs = 1'000'000;
constexpr qint64 kFusedStartNs = 4'000'000;

struct LinkedPair {
    model::Recording recording;
    MemoryStageView stage;
    LiveBandwidthChart chart;
    StageChartLink link{&stage, &chart};

    LinkedPair() {
        recording.runs = {timedRun(QStringLiteral("scratch"), kScratchStartNs, 1'500'000),
                          timedRun(QStringLiteral("fused"), kFusedStartNs, 1'000'000)};
        recording.device.name = "Test GPU";
        live::showRecording(chart, recording);
        stage.setRecording(recording);
        chart.resize(1000, 600);
        chart.show();
        stage.resize(960, 540);
        stage.show();
    }
    // Kernels of the stage's side start at this stage time.
    qint64 kernelsStart(int side) const {
        return stage.stage()->renderer().timeline(side).kernelsStartNs;
    }
    QPoint pixelAt(qint64 clockNs) const {
        QCPAxisRect* rect = chart.plot()->axisRect(0);
        const double x = rect->axis(QCPAxis::atBottom)->coordToPixel(clockNs * 1e-6);
        return QPoint(qRound(x), rect->rect().center().y());
    }
    qint64 nsPerPixel() const {
        QCPAxis* time = chart.plot()->axisRect(0)->axis(QCPAxis::atBottom);
        return static_cast<qint64>(time->range().size() * 1e6 / chart.plot()->axisRect(0)->width());
    }
};

}  // namespace

class StageChartLinkTest : public QObject {
    Q_OBJECT
  private slots:
    void seekingTheStageMovesTheCursorToTheMappedTime();
    void clickingTheChartSeeksTheStage();
    void draggingOnTheChartScrubsTheStage();
    void cursorUpdatesAreThrottledWhilePlaying();
    void saysSoWhenTheStageHasNoClock();
};

void StageChartLinkTest::seekingTheStageMovesTheCursorToTheMappedTime() {
    LinkedPair pair;
    QVERIFY(QTest::qWaitForWindowExposed(&pair.chart));
    QCOMPARE(pair.stage.paneCount(), 2);
    QVERIFY(pair.stage.hasRunClock(0) && pair.stage.hasRunClock(1));
    // 250 us into the kernels: each run's cursor is 250 us after its own first kernel.
    pair.stage.seek(pair.kernelsStart(0) + 250'000);
    QTRY_COMPARE_WITH_TIMEOUT(pair.chart.cursorNs(0), kScratchStartNs + 250'000, 100);
    QCOMPARE(pair.chart.cursorNs(1), kFusedStartNs + 250'000);
    QVERIFY(pair.chart.cursorVisible(0) && pair.chart.cursorVisible(1));
    pair.stage.seek(pair.kernelsStart(0) + 800'000);
    QTRY_COMPARE_WITH_TIMEOUT(pair.chart.cursorNs(0), kScratchStartNs + 800'000, 100);
    QCOMPARE(pair.chart.cursorNs(1), kFusedStartNs + 800'000);
    QVERIFY(pair.chart.cursorNote().contains(QStringLiteral("memory stage")));
    // For a look at the cursors, labels and badge (after the chart's coalesced replot).
    QTest::qWait(100);
    QTemporaryDir folder;  // the test writes only inside its own folder
    QVERIFY(folder.isValid());
    const QString shot = folder.filePath(QStringLiteral("stage_chart_link.png"));
    QVERIFY(pair.chart.grab().save(shot));
    QVERIFY(!QImage(shot).isNull());
}

void StageChartLinkTest::clickingTheChartSeeksTheStage() {
    LinkedPair pair;
    QVERIFY(QTest::qWaitForWindowExposed(&pair.chart));
    QTest::qWait(80);  // the first replot lays out the axes
    const qint64 tolerance = 2 * pair.nsPerPixel();
    QVERIFY(tolerance > 0 && tolerance < 100'000);

    // Inside the scratch run's kernels: the left side seeks there, before any event turns.
    const qint64 scratchTime = kScratchStartNs + 400'000;
    QTest::mousePress(pair.chart.plot(), Qt::LeftButton, {}, pair.pixelAt(scratchTime));
    const qint64 expected = pair.kernelsStart(0) + 400'000;
    QVERIFY2(qAbs(pair.stage.position() - expected) <= tolerance,
             qPrintable(QStringLiteral("stage at %1 ns, expected %2 ns")
                            .arg(pair.stage.position())
                            .arg(expected)));
    QCOMPARE(pair.stage.stage()->position(), pair.stage.position());
    QTest::mouseRelease(pair.chart.plot(), Qt::LeftButton, {}, pair.pixelAt(scratchTime));
    // Within one frame the cursor is drawn where the click was.
    QTRY_VERIFY_WITH_TIMEOUT(qAbs(pair.chart.cursorNs(0) - scratchTime) <= tolerance, 50);

    // Inside the fused run's kernels: the right side's clock decides.
    const qint64 fusedTime = kFusedStartNs + 900'000;
    QTest::mouseClick(pair.chart.plot(), Qt::LeftButton, {}, pair.pixelAt(fusedTime));
    QVERIFY2(qAbs(pair.stage.position() - (pair.kernelsStart(1) + 900'000)) <= tolerance,
             qPrintable(QString::number(pair.stage.position() - pair.kernelsStart(1))));
}

void StageChartLinkTest::draggingOnTheChartScrubsTheStage() {
    LinkedPair pair;
    QVERIFY(QTest::qWaitForWindowExposed(&pair.chart));
    QTest::qWait(80);
    const qint64 tolerance = 2 * pair.nsPerPixel();
    QWidget* plot = pair.chart.plot();
    const QPoint from = pair.pixelAt(kScratchStartNs + 100'000);
    const QPoint to = pair.pixelAt(kScratchStartNs + 1'200'000);
    QTest::mousePress(plot, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, to, plot->mapToGlobal(to), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    QVERIFY2(qAbs(pair.stage.position() - (pair.kernelsStart(0) + 1'200'000)) <= tolerance,
             qPrintable(QString::number(pair.stage.position() - pair.kernelsStart(0))));
    QTest::mouseRelease(plot, Qt::LeftButton, {}, to);
}

void StageChartLinkTest::cursorUpdatesAreThrottledWhilePlaying() {
    LinkedPair pair;
    QVERIFY(QTest::qWaitForWindowExposed(&pair.chart));
    QTest::qWait(100);

    // A burst of seeks inside one frame is one cursor redraw, not a thousand.
    const int before = pair.chart.cursorReplotCount() + pair.chart.replotCount();
    for (int i = 0; i < 1000; ++i) pair.stage.seek(pair.kernelsStart(0) + i * 1000);
    QTest::qWait(60);
    const int afterBurst = pair.chart.cursorReplotCount() + pair.chart.replotCount();
    QVERIFY2(afterBurst - before <= 2, qPrintable(QString::number(afterBurst - before)));
    QCOMPARE(pair.chart.cursorNs(0), kScratchStartNs + 999'000);

    // Playing for a second: the cursor moves every frame or so, never more often.
    pair.stage.player()->setPlaySeconds(StagePlayer::kMinPlaySeconds);
    pair.stage.seek(pair.kernelsStart(0));  // a second at 5 s per run stays inside the kernels
    QTest::qWait(40);
    const int cursorBefore = pair.chart.cursorReplotCount();
    const int replotsBefore = pair.chart.replotCount();
    int positions = 0;
    connect(&pair.stage, &MemoryStageView::positionChanged, this, [&positions] { ++positions; });
    pair.stage.play();
    QTest::qWait(1000);
    pair.stage.pause();
    const int redraws =
        pair.chart.cursorReplotCount() - cursorBefore + pair.chart.replotCount() - replotsBefore;
    qInfo("1 s of play: %d stage positions, %d chart redraws", positions, redraws);
    QVERIFY2(redraws <= 66, qPrintable(QString::number(redraws)));
    // It kept pace: about one redraw per stage frame.
    QVERIFY2(redraws >= positions / 2, qPrintable(QString::number(redraws)));
}

void StageChartLinkTest::saysSoWhenTheStageHasNoClock() {
    // Per-kernel medians only (no device timeline): no cursor, and the chart says why.
    MemoryStageView stage;
    LiveBandwidthChart chart;
    StageChartLink link(&stage, &chart);
    model::VariantResult scratch =
        stagetest::syntheticRun(QStringLiteral("swiglu"), QStringLiteral("scratch"), 1 << 20, 1.0);
    QVERIFY(stage.setRuns(scratch, nullptr, {}));
    QVERIFY(!stage.hasRunClock(0));
    stage.seek(stage.durationNs() / 2);
    QTest::qWait(40);
    QVERIFY(!chart.cursorVisible(0));
    QVERIFY(chart.cursorNote().contains(QStringLiteral("no cursor")));
    QCOMPARE(link.sideForClockNs(0), -1);
}

QTEST_MAIN(StageChartLinkTest)
#include "stage_chart_link_test.moc"
