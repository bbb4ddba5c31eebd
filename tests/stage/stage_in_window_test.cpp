// The memory stage inside the main window (offscreen): its tab gets most of the height while it
// is shown and the user's split returns afterwards; F11 in the window is lesson mode full screen.
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "stage_test_runs.h"
#include "support/shown_window.h"
#include "ui/charts/charts.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/window/main_window.h"

using namespace fusescope;

class StageInWindowTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void stageTabGetsMostOfTheHeight();
    void f11InTheWindowIsLessonModeFullScreen();
    void allocationChartFollowsTheStageApproximately();
    void passDotsStayInTheirPaneOnAProjector();

  private:
    QTemporaryDir directory_;
};

void StageInWindowTest::initTestCase() {
    // Neither the window's nor the stage's settings may touch the user's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("fusescope-stage-in-window-test"));
    QVERIFY(directory_.isValid());
}

void StageInWindowTest::stageTabGetsMostOfTheHeight() {
    QSettings settings(directory_.filePath(QStringLiteral("room.ini")), QSettings::IniFormat);
    MainWindow window(&settings);
    window.resize(1600, 1000);
    window.show();
    // The views, not the start page that comes first: the split is measured while they show.
    window.showViews();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* stage = window.findChild<MemoryStageView*>(QStringLiteral("memoryStage"));
    QVERIFY2(stage, "no memory stage in the window");
    QTabWidget* tabs = window.viewTabs();
    auto* splitter = qobject_cast<QSplitter*>(tabs->parentWidget());
    QVERIFY(splitter);
    const QList<int> before = splitter->sizes();

    tabs->setCurrentWidget(stage);
    QTest::qWait(20);
    const QList<int> sizes = splitter->sizes();
    const int index = splitter->indexOf(tabs);
    int total = 0;
    for (int size : sizes) total += size;
    QVERIFY2(sizes[index] >= total * 0.6,
             qPrintable(QStringLiteral("stage tab %1 of %2 px").arg(sizes[index]).arg(total)));
    QVERIFY(sizes[index] > before[index]);
    qInfo("stage tab: %d of %d px (before: %d)", sizes[index], total, before[index]);

    tabs->setCurrentIndex(0);
    QTest::qWait(20);
    QCOMPARE(splitter->sizes(), before);
}

void StageInWindowTest::f11InTheWindowIsLessonModeFullScreen() {
    QSettings settings(directory_.filePath(QStringLiteral("f11.ini")), QSettings::IniFormat);
    MainWindow window(&settings);
    QVERIFY(testsupport::showAt(window, QSize(1200, 800)));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto* stage = window.findChild<MemoryStageView*>(QStringLiteral("memoryStage"));
    QVERIFY(stage);

    // Another tab shown: the hidden stage leaves F11 alone.
    window.viewTabs()->setCurrentIndex(0);
    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(!stage->isFullScreen());

    window.viewTabs()->setCurrentWidget(stage);
    const bool lessonBefore = stage->lessonMode();
    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(stage->isFullScreen());
    QVERIFY(stage->lessonMode());
    stage->setFullScreen(false);
    QCOMPARE(stage->lessonMode(), lessonBefore);
    QCOMPARE(window.viewTabs()->currentWidget(), stage);
}

namespace {

// A run whose buffers are allocated at allocNs and freed at freeNs (host clock).
model::VariantResult runWithAllocations(const QString& variant, qint64 allocNs, qint64 freeNs) {
    model::VariantResult run =
        stagetest::syntheticRun(QStringLiteral("swiglu"), variant, 1 << 20, 1.0);
    using Kind = fusescope::AllocationEvent::Kind;
    run.allocations = {{Kind::Allocate, "gate", 4u << 20, allocNs, 4u << 20},
                       {Kind::Free, "gate", 4u << 20, freeNs, 0}};
    return run;
}

QList<QCPItemStraightLine*> cursorLines(QCustomPlot* plot) {
    QList<QCPItemStraightLine*> lines;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i));
            line && line->layer() && line->layer()->name() == QStringLiteral("cursor") &&
            line->visible())
            lines.append(line);
    return lines;
}

}  // namespace

void StageInWindowTest::allocationChartFollowsTheStageApproximately() {
    QSettings settings(directory_.filePath(QStringLiteral("alloc.ini")), QSettings::IniFormat);
    MainWindow window(&settings);
    QVERIFY(testsupport::showAt(window, QSize(1600, 1000)));
    model::Recording recording;
    // On the chart (ms since the first allocation): scratch 0..2 ms, fused 4..5 ms.
    recording.runs = {runWithAllocations(QStringLiteral("scratch"), 1'000'000, 3'000'000),
                      runWithAllocations(QStringLiteral("fused"), 5'000'000, 6'000'000)};
    window.setRecording(recording);
    auto* stage = window.findChild<MemoryStageView*>(QStringLiteral("memoryStage"));
    QVERIFY(stage);
    window.viewTabs()->setCurrentWidget(stage);
    ChartView* chart = nullptr;
    for (ChartView* each : window.charts())
        if (qobject_cast<AllocationChart*>(each)) chart = each;
    QVERIFY(chart);
    QTest::qWait(50);  // the chart's queued rebuild

    const qint64 leftEnd = stage->stage()->renderer().timeline(0).endNs;
    const qint64 rightEnd = stage->stage()->renderer().timeline(1).endNs;
    stage->seek(leftEnd / 2);
    QTest::qWait(60);  // moves are drawn once per frame
    QCOMPARE(cursorLines(chart).size(), 2);
    QList<double> keys;
    for (QCPItemStraightLine* line : cursorLines(chart)) keys.append(line->point1->key());
    std::sort(keys.begin(), keys.end());
    QVERIFY2(qAbs(keys[0] - 1.0) < 1e-6, qPrintable(QString::number(keys[0])));
    const double rightFraction = std::min(1.0, double(leftEnd / 2) / double(rightEnd));
    QVERIFY2(qAbs(keys[1] - (4.0 + rightFraction)) < 1e-6, qPrintable(QString::number(keys[1])));

    // A press inside the fused run's allocations seeks the stage to the same fraction of it.
    chart->replot();
    const int x = qRound(chart->xAxis->coordToPixel(4.25));
    const int y = chart->axisRect()->rect().center().y();
    QTest::mousePress(chart, Qt::LeftButton, {}, QPoint(x, y));
    const double pixelMs = chart->xAxis->pixelToCoord(x + 1) - chart->xAxis->pixelToCoord(x);
    const double expected = 0.25 * double(rightEnd);
    QVERIFY2(qAbs(double(stage->position()) - expected) <= 2 * pixelMs * double(rightEnd),
             qPrintable(QStringLiteral("%1 vs %2").arg(stage->position()).arg(expected)));
    QTest::mouseRelease(chart, Qt::LeftButton, {}, QPoint(x, y));
}

// The shipped MLP classroom recording on a 1920×1080 projector at 150 % (1280×720 logical
// pixels): the unfused g_u_h row has seven pass dots, which ran out of their pane and over the
// neighbouring one. Every text of each pane, dots' letters and counts included, stays inside it
// and clear of the others, at the start, the middle and the end.
void StageInWindowTest::passDotsStayInTheirPaneOnAProjector() {
    QSettings settings(directory_.filePath(QStringLiteral("dots.ini")), QSettings::IniFormat);
    MainWindow window(&settings);
    window.resize(1280, 720);
    window.show();
    QCOMPARE(window.openRecording(QStringLiteral(FUSESCOPE_SHIPPED_DIR
                                                 "/h200-mlp-classroom-bf16.fusescope.json")),
             QString());
    auto* stage = window.findChild<MemoryStageView*>(QStringLiteral("memoryStage"));
    QVERIFY(stage);
    window.viewTabs()->setCurrentWidget(stage);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(50);  // the stage lays out for its new height when it paints
    StageRenderer renderer = stage->stage()->renderer();
    QCOMPARE(renderer.paneCount(), 2);
    QCOMPARE(renderer.timeline(0).variant, QStringLiteral("unfused"));
    const QSize size = stage->stage()->size();
    qInfo("stage %dx%d", size.width(), size.height());
    QStringList problems;
    for (const qint64 at : {qint64(0), renderer.durationNs() / 2, renderer.durationNs()}) {
        const QVector<StageRenderer::DrawnText> texts = renderer.textLayout(size, at);
        QVERIFY(!texts.isEmpty());
        const QRectF panes[] = {renderer.paneRect(0), renderer.paneRect(1)};
        for (int a = 0; a < texts.size(); ++a) {
            const StageRenderer::DrawnText& text = texts[a];
            const QString where = QStringLiteral("at %1 ns: '%2' (%3,%4 %5x%6)")
                                      .arg(at)
                                      .arg(text.text)
                                      .arg(text.rect.x())
                                      .arg(text.rect.y())
                                      .arg(text.rect.width())
                                      .arg(text.rect.height());
            for (const QRectF& pane : panes)
                if (pane.intersects(text.rect) && !pane.adjusted(-1, -1, 1, 1).contains(text.rect))
                    problems << where + QStringLiteral(" leaves its pane");
            for (int b = a + 1; b < texts.size(); ++b) {
                const QRectF overlap = text.rect.intersected(texts[b].rect);
                if (overlap.width() > 1 && overlap.height() > 1)
                    problems << where + QStringLiteral(" overlaps '%1'").arg(texts[b].text);
            }
        }
    }
    problems.removeDuplicates();
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problems, the first: %2")
                                                .arg(problems.size())
                                                .arg(problems.value(0))));
}

QTEST_MAIN(StageInWindowTest)
#include "stage_in_window_test.moc"
