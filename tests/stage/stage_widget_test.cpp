// The stage widget, its player and its view, offscreen: what the stage shows at chosen times of
// a known side-by-side timeline, stepping, scrubbing, keys, lesson mode, and painting.
#include <QPainter>
#include <QSvgRenderer>
#include <QtTest>

#include "stage_test_runs.h"
#include "support/shown_window.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/stage/stage_player.h"

using namespace fusescope;

namespace {

// SwiGLU scratch (1 ms) vs fused (0.6 ms) at N = 2^20: known times, chosen by the test.
struct KnownPair {
    model::VariantResult scratch = stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0);
    model::VariantResult fused = stagetest::syntheticRun("swiglu", "fused", 1 << 20, 0.6);
    StageCaptionContext caption{QStringLiteral("Test GPU"),
                                QStringLiteral("N = 1,048,576 · float32 · vector 4"),
                                QStringLiteral("timing + model"),
                                QStringLiteral("HBM (device memory)"), QStringLiteral("SMs")};
};

bool imageHasManyColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    return colours.size() > 20;
}

}  // namespace

class StageWidgetTest : public QObject {
    Q_OBJECT
  private slots:
    void stateAtChosenTimes();
    void fusedSideNeverWritesTheIntermediate();
    void playerStepsFromKernelToKernel();
    void playerPlaysTheWholeRunInItsPlayTime();
    void keysDriveThePlayer();
    void lessonModeChangesTheTheme();
    void seekAndPositionChangedFollowEachOther();
    void paintsAFrame();
    void exportsPngAndSvgFrames();
    void unknownRunIsRefusedWithAReason();
    void recordingShowsUnfusedLeftFusedRight();
    void fullScreenAndBack();
};

void StageWidgetTest::stateAtChosenTimes() {
    KnownPair pair;
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    const MemoryStageWidget* stage = view.stage();
    const model::StageTimeline& left = stage->renderer().timeline(0);
    const model::StageTimeline& right = stage->renderer().timeline(1);
    const int scratch = left.arrayIndex("scratch");
    QVERIFY(scratch >= 0);
    QCOMPARE(right.arrayIndex("scratch"), -1);
    QCOMPARE(view.durationNs(), left.endNs);  // the slower run sets the scale

    // Before its allocation the scratch is not on stage; nothing has moved.
    view.seek(left.arrays[scratch].allocatedAtNs - 1);
    QVERIFY(!stage->state(0).arrays[scratch].allocated);
    QCOMPARE(stage->state(0).passesCompleted, 0);
    QCOMPARE(stage->state(0).phase, model::StagePhase::Allocating);

    // In the scratch kernel's first loop: gate is being read and scratch written.
    view.seek(left.kernelsStartNs + 200'000);
    QCOMPARE(stage->state(0).kernel, 0);
    QVERIFY(stage->state(0).arrays[scratch].allocated);
    QVERIFY(stage->state(0).arrays[scratch].activeIsWrite);
    QVERIFY(stage->state(0).arrays[scratch].activeFraction > 0.0);
    QCOMPARE(stage->state(1).kernel, 0);
    QVERIFY(stage->state(1).intermediateInRegisters);

    // When the fused kernel has ended, it has done its 3 passes; the scratch run is still going.
    view.seek(right.kernelsEndNs);
    QCOMPARE(stage->state(1).passesCompleted, 3);
    QVERIFY(stage->state(0).passesCompleted < 5);
    QCOMPARE(stage->state(0).phase, model::StagePhase::Running);

    // At the end: 5 and 3 passes, the scratch freed, the peaks one array apart.
    view.seek(view.durationNs());
    QCOMPARE(stage->state(0).passesCompleted, 5);
    QCOMPARE(stage->state(1).passesCompleted, 3);
    QVERIFY(!stage->state(0).arrays[scratch].allocated);
    QCOMPARE(stage->state(0).peakSoFar - stage->state(1).peakSoFar, quint64(4u << 20));
    QCOMPARE(stage->state(0).phase, model::StagePhase::Finished);
}

void StageWidgetTest::fusedSideNeverWritesTheIntermediate() {
    KnownPair pair;
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    const model::StageTimeline& fused = view.stage()->renderer().timeline(1);
    const int out = fused.arrayIndex("out");
    // Sample the whole run: the only array the fused side ever writes is `out`.
    for (qint64 t = 0; t <= view.durationNs(); t += view.durationNs() / 97) {
        view.seek(t);
        const model::StageState& state = view.stage()->state(1);
        for (int a = 0; a < state.arrays.size(); ++a) {
            if (a == out) continue;
            QVERIFY(!(state.arrays[a].activeFraction >= 0.0 && state.arrays[a].activeIsWrite));
            QCOMPARE(state.arrays[a].writePasses, 0);
        }
    }
}

void StageWidgetTest::playerStepsFromKernelToKernel() {
    KnownPair pair;
    pair.scratch = stagetest::syntheticRun("swiglu", "two_launch", 1 << 20, 0.5);
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    const model::StageTimeline& left = view.stage()->renderer().timeline(0);
    StagePlayer* player = view.player();
    player->seek(0);
    player->stepToNextKernel();
    QCOMPARE(player->position(), left.kernelsStartNs);  // both runs' first kernels start here
    player->stepToNextKernel();
    // The next stop is the earlier of: the fused kernel's end, the silu kernel's end.
    const qint64 fusedEnd = view.stage()->renderer().timeline(1).kernels[0].endNs;
    QCOMPARE(player->position(), std::min(fusedEnd, left.kernels[0].endNs));
    QCOMPARE(view.stage()->position(), player->position());
    player->stepToPreviousKernel();
    QCOMPARE(player->position(), left.kernelsStartNs);
    player->seek(view.durationNs());
    player->stepToNextKernel();
    QCOMPARE(player->position(), view.durationNs());
}

void StageWidgetTest::playerPlaysTheWholeRunInItsPlayTime() {
    StagePlayer player;
    player.setDuration(1'000'000);
    player.setPlaySeconds(1.0);  // below the minimum: clamped
    QCOMPARE(player.playSeconds(), StagePlayer::kMinPlaySeconds);
    player.setPlaySeconds(60.0);
    QCOMPARE(player.playSeconds(), StagePlayer::kMaxPlaySeconds);
    player.setPlaySeconds(5.0);
    QSignalSpy stopped(&player, &StagePlayer::playingChanged);
    QElapsedTimer wall;
    wall.start();
    player.play();
    QVERIFY(player.isPlaying());
    QTest::qWait(1000);
    // After a fifth of the play time, about a fifth of the run has played.
    const double fraction = double(player.position()) / 1'000'000.0;
    const double expected = double(wall.elapsed()) / 5000.0;
    QVERIFY2(qAbs(fraction - expected) < 0.06,
             qPrintable(QString("played %1, expected %2").arg(fraction).arg(expected)));
    player.pause();
    QVERIFY(!player.isPlaying());
    QCOMPARE(stopped.count(), 2);
}

void StageWidgetTest::keysDriveThePlayer() {
    KnownPair pair;
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    QVERIFY(testsupport::showAt(view, QSize(960, 540)));
    QTest::keyClick(&view, Qt::Key_Right);
    QCOMPARE(view.position(), view.stage()->renderer().timeline(0).kernelsStartNs);
    const qint64 before = view.position();
    QTest::keyClick(&view, Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(view.position(), before + qint64(std::llround(0.02 * double(view.durationNs()))));
    QTest::keyClick(&view, Qt::Key_Space);
    QVERIFY(view.player()->isPlaying());
    QTest::keyClick(&view, Qt::Key_Space);
    QVERIFY(!view.player()->isPlaying());
    QTest::keyClick(&view, Qt::Key_L);
    QVERIFY(view.lessonMode());
    QTest::keyClick(&view, Qt::Key_L);
    QVERIFY(!view.lessonMode());
}

void StageWidgetTest::lessonModeChangesTheTheme() {
    KnownPair pair;
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    const double normalFont = view.stage()->renderer().theme().fontFraction;
    view.setLessonMode(true);
    QVERIFY(view.stage()->renderer().theme().lesson);
    QVERIFY(view.stage()->renderer().theme().fontFraction > normalFont);
    QCOMPARE(view.stage()->renderer().theme().background, QColor(Qt::black));
    view.setLessonMode(false);
    QVERIFY(!view.stage()->renderer().theme().lesson);
}

void StageWidgetTest::seekAndPositionChangedFollowEachOther() {
    KnownPair pair;
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    QSignalSpy moved(&view, &MemoryStageView::positionChanged);
    view.seek(123'456);
    QCOMPARE(moved.count(), 1);
    QCOMPARE(moved.takeFirst().at(0).toLongLong(), 123'456);
    // A chart on the run's own clock: laid-out timelines start their kernels at 0 there.
    view.seekRunClock(1, 100'000);
    QCOMPARE(view.position(), view.stage()->renderer().timeline(1).kernelsStartNs + 100'000);
    QCOMPARE(view.toRunClockNs(1, view.position()), qint64(100'000));
}

void StageWidgetTest::paintsAFrame() {
    KnownPair pair;
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    view.resize(1280, 720);
    view.seek(view.stage()->renderer().timeline(0).kernelsStartNs + 300'000);
    const QImage image = view.stage()->grab().toImage();
    QVERIFY(!image.isNull());
    QVERIFY(imageHasManyColours(image));
}

void StageWidgetTest::exportsPngAndSvgFrames() {
    KnownPair pair;
    MemoryStageView view;
    QVERIFY(view.setRuns(pair.scratch, &pair.fused, pair.caption));
    view.seek(view.stage()->renderer().timeline(0).kernelsStartNs + 300'000);
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString png = directory.filePath("frame.png");
    StageExportResult result = view.exportFrame(png, {1600, 900});
    QVERIFY2(result.ok, qPrintable(result.message));
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1600, 900));
    QVERIFY(imageHasManyColours(image));

    const QString svg = directory.filePath("frame.svg");
    result = view.exportFrame(svg, {1920, 1080});
    QVERIFY2(result.ok, qPrintable(result.message));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("Test GPU"));  // the caption travels with the frame
    QVERIFY(!text.contains("<image"));   // vectors, not a pasted bitmap
    QSvgRenderer svgRenderer(svg);       // and a valid SVG that draws the stage
    QVERIFY(svgRenderer.isValid());
    QImage fromSvg(960, 540, QImage::Format_ARGB32_Premultiplied);
    fromSvg.fill(Qt::transparent);
    QPainter svgPainter(&fromSvg);
    svgRenderer.render(&svgPainter);
    svgPainter.end();
    QVERIFY(imageHasManyColours(fromSvg));

    result = view.exportFrame(directory.filePath("no/such/dir/frame.png"), {640, 360});
    QVERIFY(!result.ok);
    QVERIFY(result.message.contains("no/such/dir"));
}

void StageWidgetTest::unknownRunIsRefusedWithAReason() {
    KnownPair pair;
    pair.fused.pipeline = "mlp_of_the_future";
    MemoryStageView view;
    QVERIFY(!view.setRuns(pair.scratch, &pair.fused, pair.caption));
    QVERIFY(view.lastError().contains("mlp_of_the_future"));
}

void StageWidgetTest::recordingShowsUnfusedLeftFusedRight() {
    model::Recording recording;
    recording.device.name = "Test GPU";
    recording.runs = {stagetest::syntheticRun("swiglu", "fused", 1 << 20, 0.6),
                      stagetest::syntheticRun("swiglu", "two_launch", 1 << 20, 0.5),
                      stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0)};
    MemoryStageView view;
    view.setRecording(recording);
    const StageRenderer& renderer = view.stage()->renderer();
    QCOMPARE(renderer.paneCount(), 2);
    QCOMPARE(renderer.timeline(0).variant, QStringLiteral("two_launch"));
    QCOMPARE(renderer.timeline(1).variant, QStringLiteral("fused"));
    QVERIFY(renderer.caption().deviceName == QStringLiteral("Test GPU"));
    view.showRecordingRuns(2, 1);
    QCOMPARE(renderer.timeline(0).variant, QStringLiteral("scratch"));
    QCOMPARE(renderer.timeline(1).variant, QStringLiteral("two_launch"));
    view.showRecordingRuns(2, -1);  // one run alone
    QCOMPARE(renderer.paneCount(), 1);
    view.resize(960, 540);
    view.seek(renderer.timeline(0).kernelsStartNs + 1);
    QVERIFY(imageHasManyColours(view.stage()->grab().toImage()));
}

void StageWidgetTest::fullScreenAndBack() {
    QWidget window;
    auto* view = new MemoryStageView(&window);
    KnownPair pair;
    QVERIFY(view->setRuns(pair.scratch, &pair.fused, pair.caption));
    QVERIFY(testsupport::showAt(window, QSize(800, 450)));
    view->setFullScreen(true);
    QVERIFY(view->isWindow());
    QVERIFY(view->isFullScreen());
    QTest::keyClick(view, Qt::Key_Escape);
    QVERIFY(!view->isWindow());
    QCOMPARE(view->parentWidget(), &window);
}

QTEST_MAIN(StageWidgetTest)
#include "stage_widget_test.moc"
