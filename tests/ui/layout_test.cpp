// The main window on a classroom projector: it fits small screens, and after a real CPU run of
// every pipeline no text of any tab or chart is cut by its widget or plot, overlaps other text,
// or covers plotted data. The same test runs at scale 1, 1.5 and 2 (QT_SCALE_FACTOR, set by ctest).
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "layout_checks.h"
#include "live/live_bandwidth_chart.h"
#include "pipelines/registry.h"
#include "ui/chart_view.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/main_window.h"
#include "ui/run_panel.h"
#include "ui/stage/memory_stage_widget.h"
#include "ui/sweep_tab.h"

using namespace fusescope;

namespace {

constexpr int kRunTimeoutMs = 120000;

// The MLP classroom recording shipped with the program (a measured H200 run).
constexpr char kShippedRecording[] = "h200-mlp-classroom-bf16.fusescope.json";

// The memory stage's smallest type, in the widget's own (logical) pixels.
constexpr int kLeastStagePixels = 11;

// The pixels a window may take as its least size on a 1024×640 screen (logical pixels: the
// platform scales them).
const QSize kSmallestScreen(1024, 640);

// Each widget's least size, indented by depth, widest first: names the cause of a large minimum.
void describeMinimumSizes(const QWidget* widget, int depth, QString& out) {
    const QSize least = widget->minimumSizeHint().expandedTo(widget->minimumSize());
    out += QStringLiteral("%1%2 %3 %4x%5\n")
               .arg(QString(depth * 2, QLatin1Char(' ')),
                    QString::fromLatin1(widget->metaObject()->className()), widget->objectName())
               .arg(least.width())
               .arg(least.height());
    if (depth > 9) return;
    for (const QObject* child : widget->children())
        if (const auto* childWidget = qobject_cast<const QWidget*>(child);
            childWidget && !childWidget->isWindow())
            describeMinimumSizes(childWidget, depth + 1, out);
}

}  // namespace

class LayoutTest : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void windowFitsASmallScreen();
    void noTextCutOrOverlappingAfterEachPipeline_data();
    void noTextCutOrOverlappingAfterEachPipeline();

  private:
    std::unique_ptr<QTemporaryDir> directory_;
    std::unique_ptr<QSettings> settings_;
};

void LayoutTest::init() {
    directory_ = std::make_unique<QTemporaryDir>();
    QVERIFY(directory_->isValid());
    settings_ = std::make_unique<QSettings>(directory_->filePath(QStringLiteral("settings.ini")),
                                            QSettings::IniFormat);
}

void LayoutTest::windowFitsASmallScreen() {
    MainWindow window(settings_.get());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The window itself scrolls below its views' least size; that size is what must fit.
    auto* views = window.findChild<QWidget*>(QStringLiteral("mainSplitter"));
    QVERIFY(views);
    const QSize chrome(
        0, window.menuBar()->sizeHint().height() + window.statusBar()->sizeHint().height());
    const QSize least = views->minimumSizeHint().expandedTo(views->minimumSize()) + chrome;
    QVERIFY(window.minimumSizeHint().width() <= least.width());
    QVERIFY(window.minimumSizeHint().height() <= least.height());
    QString tree;
    describeMinimumSizes(views, 0, tree);
    const bool fits =
        least.width() <= kSmallestScreen.width() && least.height() <= kSmallestScreen.height();
    qInfo("views' least size with menu and status bar: %dx%d", least.width(), least.height());
    if (!fits) qInfo().noquote() << tree;
    QVERIFY2(fits,
             qPrintable(QStringLiteral("least size %1x%2").arg(least.width()).arg(least.height())));
}

void LayoutTest::noTextCutOrOverlappingAfterEachPipeline_data() {
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<QSize>("screen");
    QStringList names;
    for (const PipelineSpec& pipeline : pipelines()) names << QString::fromStdString(pipeline.name);
    // A shipped recording of a GPU run too: the bandwidth chart, the measurements and the stage
    // with measured data (its file name in place of a pipeline).
    names << QString::fromLatin1(kShippedRecording);
    for (const QString& name : names)
        for (const QSize screen : {QSize(1280, 720), QSize(1366, 768), QSize(1920, 1080)})
            QTest::addRow("%s %dx%d", qPrintable(name), screen.width(), screen.height())
                << name << screen;
}

// A real CPU run of the pipeline (small N), or the shipped recording opened, then every tab of
// both tab widgets in turn, on a screen of that many pixels at the process's scale factor.
void LayoutTest::noTextCutOrOverlappingAfterEachPipeline() {
    QFETCH(QString, pipeline);
    QFETCH(QSize, screen);
    MainWindow window(settings_.get());
    const qreal ratio = window.devicePixelRatioF();
    window.resize(qRound(screen.width() / ratio), qRound(screen.height() / ratio));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    if (!window.backendsKnown()) {
        QSignalSpy probed(&window, &MainWindow::backendsProbed);
        QVERIFY(probed.wait(30000));
    }
    if (pipeline.endsWith(QStringLiteral(".json"))) {
        QCOMPARE(window.openRecording(QStringLiteral(FUSESCOPE_RECORDINGS_DIR "/") + pipeline),
                 QString());
        window.showViews();
    } else {
        RunCommand command;
        command.backend = BackendChoice::Cpu;
        command.request.pipeline = pipeline.toStdString();
        // Small problems: N = 4096 for the elementwise pipelines, every dimension 9 (a multiple of
        // no tile) for the others.
        for (const DimensionSpec& dimension : findPipeline(command.request.pipeline)->dimensions)
            command.request.problem.dimensions[dimension.name] = dimension.name == "N" ? 4096 : 9;
        command.request.repeats = 2;
        command.request.warmup = 1;
        const PipelineSpec* spec = findPipeline(command.request.pipeline);
        QVERIFY(spec);
        QSignalSpy ended(&window, &MainWindow::runEnded);
        window.startCommand(command);
        QVERIFY(ended.wait(kRunTimeoutMs));
        QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));

        // A small sweep of the same pipeline, so the Size sweep chart is checked with its data.
        SweepTab* sweep = window.sweepTab();
        sweep->fromEdit()->setText(QStringLiteral("4096"));
        sweep->toEdit()->setText(QStringLiteral("2^16"));
        sweep->repeatsSpin()->setValue(2);
        QSignalSpy swept(sweep, &SweepTab::sweepEnded);
        sweep->startSweep();
        QVERIFY(swept.wait(kRunTimeoutMs));
        QVERIFY2(swept.first().at(0).toBool(), qPrintable(swept.first().at(1).toString()));
    }

    // The shipped H200 tile sweep, so the Tile explorer's heatmap and roofline are checked with
    // real data.
    QCOMPARE(window.tileExplorer()->openTileSweepFile(
                 QStringLiteral(FUSESCOPE_RECORDINGS_DIR "/tiles-mlp-classroom-bf16-h200.json")),
             QString());

    QStringList problems;
    // The tab shown now: its plots and every label of the window.
    const auto checkShown = [&](const QString& tabName, QWidget* shown) {
        for (ChartView* chart : window.charts()) chart->rebuildNow();
        QCoreApplication::processEvents();
        QTest::qWait(20);
        for (QCustomPlot* plot : shown->findChildren<QCustomPlot*>()) {
            if (!plot->isVisible() || plot->width() < 2) continue;
            // One replot lays the chart out for good: a second one at the same size (the window
            // replots on its next event) must draw every text where the first did.
            plot->replot(QCustomPlot::rpImmediateRefresh);
            for (const QString& problem : testing::plotProblems(*plot))
                problems << QStringLiteral("[%1] %2").arg(tabName, problem);
            const std::vector<testing::PlacedText> first = testing::plotTexts(*plot);
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const std::vector<testing::PlacedText> second = testing::plotTexts(*plot);
            QString moved;
            for (std::size_t i = 0; moved.isEmpty() && i < first.size(); ++i)
                if (i >= second.size() || first[i].what != second[i].what ||
                    first[i].rect != second[i].rect)
                    moved =
                        QStringLiteral("%1 %2, then %3 %4")
                            .arg(first[i].what, testing::describe(first[i].rect),
                                 i < second.size() ? second[i].what : QString(),
                                 i < second.size() ? testing::describe(second[i].rect) : QString());
            if (moved.isEmpty() && second.size() > first.size())
                moved = QStringLiteral("then also %1").arg(second[first.size()].what);
            if (!moved.isEmpty())
                problems << QStringLiteral("[%1] %2: a second replot moved its text: %3")
                                .arg(tabName, testing::plotName(*plot), moved);
        }
        // For a person to look at what the checks saw: FUSESCOPE_LAYOUT_SHOTS=folder.
        if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
            window.grab().save(
                QStringLiteral("%1/%2-%3x%4-%5.png")
                    .arg(shots, pipeline)
                    .arg(screen.width())
                    .arg(screen.height())
                    .arg(QString(tabName).replace(QLatin1Char(' '), QLatin1Char('_'))));
        for (const QString& problem : testing::labelProblems(window))
            problems << QStringLiteral("[%1] %2").arg(tabName, problem);
    };
    for (QTabWidget* tabs : {window.viewTabs(), window.chartTabs()})
        for (int index = 0; index < tabs->count(); ++index) {
            if (!tabs->isTabVisible(index)) continue;
            tabs->setCurrentIndex(index);
            checkShown(tabs->tabText(index), tabs->currentWidget());
            // Tabs inside the tab (the explorer's heatmap and roofline), each in turn.
            auto* inner = tabs->currentWidget()->findChild<QTabWidget*>();
            for (int page = 0; inner && page < inner->count(); ++page) {
                inner->setCurrentIndex(page);
                checkShown(tabs->tabText(index) + QStringLiteral(" - ") + inner->tabText(page),
                           inner->currentWidget());
            }
        }
    // The bandwidth chart with the idle time cut out: the kernels' names closer together, and a
    // break at each cut.
    if (auto* bandwidth = window.findChild<live::LiveBandwidthChart*>()) {
        window.chartTabs()->setCurrentWidget(bandwidth);
        bandwidth->setKernelsOnly(true);
        checkShown(QStringLiteral("Bandwidth over time, kernels only"), bandwidth);
        bandwidth->setKernelsOnly(false);
    }
    // The stage is checked with the room it takes when chosen: the explorer, chosen last, took
    // the height for itself, and gives it back when another chart tab is chosen.
    window.chartTabs()->setCurrentIndex(0);
    window.viewTabs()->setCurrentWidget(window.findChild<QWidget*>(QStringLiteral("memoryStage")));
    QCoreApplication::processEvents();
    QTest::qWait(50);  // the stage lays out for its new height when it paints
    // The memory stage's text, at the start, the middle and the end of the run: big enough, inside
    // the stage, and never printed over other text.
    QStringList stageProblems;
    if (auto* stage = window.findChild<MemoryStageWidget*>(); stage && stage->hasTimelines()) {
        StageRenderer renderer = stage->renderer();
        const QRectF frame(QPointF(0, 0), QSizeF(stage->size()));
        for (const qint64 at : {qint64(0), stage->durationNs() / 2, stage->durationNs()}) {
            const QVector<StageRenderer::DrawnText> texts = renderer.textLayout(stage->size(), at);
            QVERIFY(!texts.isEmpty());
            for (int a = 0; a < texts.size(); ++a) {
                const StageRenderer::DrawnText& text = texts[a];
                const QString where = QStringLiteral("[stage at %1 ns, detail %2] '%3' %4")
                                          .arg(at)
                                          .arg(renderer.detailLevel())
                                          .arg(text.text, testing::describe(text.rect));
                if (text.pixelSize < kLeastStagePixels)
                    stageProblems << where + QStringLiteral(" is %1 px").arg(text.pixelSize);
                if (!frame.adjusted(-1, -1, 1, 1).contains(text.rect))
                    stageProblems << where + QStringLiteral(" is cut by the stage");
                for (int b = a + 1; b < texts.size(); ++b) {
                    const QRectF overlap = text.rect.intersected(texts[b].rect);
                    if (overlap.width() > 1 && overlap.height() > 1)
                        stageProblems
                            << where + QStringLiteral(" overlaps '%1' %2")
                                           .arg(texts[b].text, testing::describe(texts[b].rect));
                }
            }
        }
    }
    // Run and Cancel stay in sight whenever the window is at least its views' least size
    // (below that the whole window scrolls, by design).
    auto* views = window.findChild<QWidget*>(QStringLiteral("mainSplitter"));
    QVERIFY(views);
    const bool atLeastLeastSize = views->height() <= window.centralWidget()->height() &&
                                  views->width() <= window.centralWidget()->width();
    if (atLeastLeastSize)
        for (const QString& problem : testing::buttonProblems(
                 window, {QStringLiteral("runButton"), QStringLiteral("cancelButton")}))
            problems << problem;
    problems.removeDuplicates();
    if (!problems.isEmpty()) qInfo().noquote() << problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problems, the first: %2")
                                                .arg(problems.size())
                                                .arg(problems.value(0))));
    stageProblems.removeDuplicates();
    if (!stageProblems.isEmpty()) qInfo().noquote() << stageProblems.join(QLatin1Char('\n'));
    QVERIFY2(stageProblems.isEmpty(), qPrintable(QStringLiteral("%1 stage problems, the first: %2")
                                                     .arg(stageProblems.size())
                                                     .arg(stageProblems.value(0))));
}

QTEST_MAIN(LayoutTest)
#include "layout_test.moc"
