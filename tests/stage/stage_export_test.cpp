// The stage's exports: an animated GIF that giflib reads back (DGifSlurp) with the expected frame
// count and size, cancellation from another thread, and the export job's signals.
#include <QtTest>
#include <atomic>
#include <vector>

#include "model/stage/stage_timeline.h"
#include "stage_test_runs.h"
#include "ui/stage/gif_writer.h"
#include "ui/stage/stage_export.h"

#ifdef FUSESCOPE_HAVE_GIFLIB
#include <gif_lib.h>
#endif

using namespace fusescope;

namespace {

StageRenderer sideBySideRenderer() {
    Result<model::StageTimeline> scratch =
        model::buildStageTimeline(stagetest::syntheticRun("swiglu", "scratch", 1 << 20, 1.0));
    Result<model::StageTimeline> fused =
        model::buildStageTimeline(stagetest::syntheticRun("swiglu", "fused", 1 << 20, 0.6));
    if (!scratch || !fused) qFatal("timelines did not build");
    model::alignStageTimelines(*scratch, *fused);
    StageRenderer renderer;
    renderer.setTimelines(*scratch, &*fused);
    renderer.setCaption({QStringLiteral("Test GPU"),
                         QStringLiteral("N = 1,048,576 · float32 · vector 4"),
                         QStringLiteral("timing + model"), QStringLiteral("HBM (device memory)"),
                         QStringLiteral("SMs")});
    return renderer;
}

struct GifFacts {
    QString error;
    int frames = 0;
    QSize size;
};

GifFacts readGif(const QString& path) {
    GifFacts facts;
#ifdef FUSESCOPE_HAVE_GIFLIB
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.toLocal8Bit().constData(), &error);
    if (!gif) {
        facts.error = QString("DGifOpenFileName: %1").arg(GifErrorString(error));
        return facts;
    }
    if (DGifSlurp(gif) != GIF_OK)
        facts.error = QString("DGifSlurp: %1").arg(GifErrorString(gif->Error));
    facts.frames = gif->ImageCount;
    facts.size = QSize(gif->SWidth, gif->SHeight);
    DGifCloseFile(gif, &error);
#else
    (void)path;
    facts.error = "built without giflib";
#endif
    return facts;
}

}  // namespace

class StageExportTest : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void gifReadsBackWithTheExpectedFramesAndSize();
    void gifFramesDiffer();
    void cancelStopsAndRemovesTheFile();
    void jobRunsOffTheGuiThread();
    void jobExportsAgainFromItsFinishAndStopsWhenDestroyed();
    void unwritableGifPathIsAReadableError();
};

void StageExportTest::init() {
    if (!GifWriter::available()) QSKIP("built without giflib (libgif-dev): GIF export is disabled");
}

void StageExportTest::gifReadsBackWithTheExpectedFramesAndSize() {
    QTemporaryDir directory;
    const QString path = directory.filePath("stage.gif");
    StageGifOptions options;
    options.size = QSize(480, 270);
    options.playSeconds = 5.0;
    options.framesPerSecond = 4;
    const int expected = stageGifFrameCount(options);
    QCOMPARE(expected, 21);  // 5 s at 4 frames per second, both ends included
    int lastDone = 0, lastTotal = 0;
    const StageExportResult result =
        exportStageGif(sideBySideRenderer(), path, options,
                       [&](int done, int total) { lastDone = done, lastTotal = total; });
    QVERIFY2(result.ok, qPrintable(result.message));
    QCOMPARE(lastDone, expected);
    QCOMPARE(lastTotal, expected);
    const GifFacts facts = readGif(path);
    QVERIFY2(facts.error.isEmpty(), qPrintable(facts.error));
    QCOMPARE(facts.frames, expected);
    QCOMPARE(facts.size, options.size);
}

void StageExportTest::gifFramesDiffer() {
    // The first and the last frame of the animation are different pictures.
    StageRenderer renderer = sideBySideRenderer();
    const QImage first = renderStageFrame(renderer, {480, 270}, 0);
    const QImage last = renderStageFrame(renderer, {480, 270}, renderer.durationNs());
    QVERIFY(first != last);
}

void StageExportTest::cancelStopsAndRemovesTheFile() {
    QTemporaryDir directory;
    const QString path = directory.filePath("cancelled.gif");
    std::atomic<bool> cancel{false};
    StageGifOptions options;
    options.size = QSize(320, 180);
    int framesWritten = 0;
    const StageExportResult result = exportStageGif(
        sideBySideRenderer(), path, options,
        [&](int done, int) {
            framesWritten = done;
            if (done == 3) cancel = true;
        },
        &cancel);
    QVERIFY(!result.ok);
    QVERIFY(result.message.contains("cancelled"));
    QCOMPARE(framesWritten, 3);
    QVERIFY(!QFile::exists(path));
}

void StageExportTest::jobRunsOffTheGuiThread() {
    QTemporaryDir directory;
    const QString path = directory.filePath("job.gif");
    StageGifExportJob job;
    QSignalSpy progress(&job, &StageGifExportJob::progress);
    QSignalSpy finished(&job, &StageGifExportJob::finished);
    StageGifOptions options;
    options.size = QSize(320, 180);
    options.playSeconds = 5.0;
    options.framesPerSecond = 6;
    // The GUI thread keeps turning while the job works: a timer fires on it meanwhile.
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(5);
    job.start(sideBySideRenderer(), path, options);
    QVERIFY(finished.wait(60000));
    const auto result = finished.takeFirst().at(0).value<StageExportResult>();
    QVERIFY2(result.ok, qPrintable(result.message));
    QVERIFY(progress.count() > 0);
    QVERIFY(ticks > 0);
    QCOMPARE(readGif(path).frames, stageGifFrameCount(options));
}

void StageExportTest::jobExportsAgainFromItsFinishAndStopsWhenDestroyed() {
    QTemporaryDir directory;
    StageGifOptions options;
    options.size = QSize(160, 90);
    options.playSeconds = 1.0;
    options.framesPerSecond = 4;
    StageGifExportJob job;
    // The second export starts from the first one's finished, as a person clicking again at once
    // would, while the first thread may still be ending. Results are gathered on this thread.
    const QString first = directory.filePath("first.gif"),
                  second = directory.filePath("second.gif");
    std::vector<StageExportResult> results;
    connect(
        &job, &StageGifExportJob::finished, &job,
        [&](const StageExportResult& result) {
            results.push_back(result);
            if (results.size() == 1) job.start(sideBySideRenderer(), second, options);
        },
        Qt::QueuedConnection);
    job.start(sideBySideRenderer(), first, options);
    QVERIFY(job.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(results.size()), 2, 60000);
    for (const StageExportResult& result : results) QVERIFY2(result.ok, qPrintable(result.message));
    QVERIFY(!job.isRunning());
    QCOMPARE(readGif(first).frames, stageGifFrameCount(options));
    QCOMPARE(readGif(second).frames, stageGifFrameCount(options));

    // Destroyed mid-export: the job cancels and joins its thread; the export leaves no file.
    const QString cut = directory.filePath("cut.gif");
    {
        StageGifExportJob doomed;
        QSignalSpy progress(&doomed, &StageGifExportJob::progress);
        StageGifOptions many = options;
        many.size = QSize(640, 360);
        many.playSeconds = 60.0;
        many.framesPerSecond = 30;
        doomed.start(sideBySideRenderer(), cut, many);
        QVERIFY(progress.wait(60000));
    }
    QVERIFY(!QFile::exists(cut));
}

void StageExportTest::unwritableGifPathIsAReadableError() {
    const StageExportResult result =
        exportStageGif(sideBySideRenderer(), "/nonexistent-dir/stage.gif", StageGifOptions{});
    QVERIFY(!result.ok);
    QVERIFY2(result.message.contains("/nonexistent-dir/stage.gif"), qPrintable(result.message));
}

QTEST_MAIN(StageExportTest)
#include "stage_export_test.moc"
