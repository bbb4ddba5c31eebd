// The main window on a classroom projector: it fits small screens, and after a real CPU run of
// every pipeline no text of any tab or chart is cut by its widget or plot, overlaps other text,
// or covers plotted data. The same test runs at scale 1, 1.5 and 2 (QT_SCALE_FACTOR, set by ctest).

#include <QFontInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include "layout_checks.h"
#include "live/live_bandwidth_chart.h"
#include "pipelines/registry.h"
#include "support/shown_window.h"
#include "support/window_test_case.h"
#include "ui/charts/chart_least_height.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/plot_axis_rects.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/lab/lab_buffers.h"
#include "ui/lab/lab_view.h"
#include "ui/run/measurement_panel.h"
#include "ui/run/run_panel.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/stage/memory_stage_widget.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/window/appearance.h"
#include "ui/window/main_window.h"
#include "ui/window/tab_lookup.h"

using namespace fusescope;

namespace {

constexpr int kRunTimeoutMs = 120000;

// The MLP classroom recording shipped with the program (a measured H200 run).
constexpr char kShippedRecording[] = "h200-mlp-classroom-bf16.fusescope.json";

// The MLP prefill recording: one variant 140x slower than the others, M = 4096.
constexpr char kPrefillRecording[] = "h200-mlp-prefill-4096-bf16.fusescope.json";
// Each launch counted five times: the lesson kernel's row carries the longest reasons.
constexpr char kCountedRecording[] = "h200-mlp-prefill-512-bf16.fusescope.json";
// Decode-1: the GEMV kernels and the lesson kernel, the longest kernel names.
constexpr char kDecodeRecording[] = "h200-mlp-decode-1-bf16.fusescope.json";

// On a projector at 1280x720 text below this many pixels is lost beyond the second row.
constexpr int kLeastPresentationPixels = 16;

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

// A font's height in the window's (logical) pixels.
int pixelHeight(const QFont& font) {
    return QFontInfo(font).pixelSize();
}

// Every font of a plot's text that is smaller than `least` pixels, and every axis label the plot
// has shortened (an elided label loses its unit).
QStringList smallOrShortenedPlotText(QCustomPlot& plot, int least) {
    QStringList problems;
    const QString name = testing::plotName(plot);
    const auto check = [&](const QFont& font, const QString& what) {
        if (pixelHeight(font) < least)
            problems << QStringLiteral("%1: %2 is %3 px").arg(name, what).arg(pixelHeight(font));
    };
    for (QCPAxisRect* rect : everyAxisRect(plot))
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->realVisibility()) continue;
            if (axis->tickLabels() && !axis->tickVectorLabels().isEmpty())
                check(axis->tickLabelFont(), QStringLiteral("tick labels of an axis"));
            if (axis->label().isEmpty()) continue;
            check(axis->labelFont(), QStringLiteral("axis label '%1'").arg(axis->label()));
            const QString full = axis->property("fusescopeFullText").toString();
            if (!full.isEmpty() && full != axis->label())
                problems << QStringLiteral("%1: axis label '%2' is shown as '%3'")
                                .arg(name, full, axis->label());
        }
    for (QCPLayoutElement* element : plot.plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(element);
            text && text->realVisibility() && !text->text().isEmpty())
            check(text->font(), QStringLiteral("text '%1'").arg(text->text()));
        if (auto* legend = qobject_cast<QCPLegend*>(element); legend && legend->realVisibility())
            for (int i = 0; i < legend->itemCount(); ++i)
                if (QCPAbstractLegendItem* item = legend->item(i))
                    check(item->font(), QStringLiteral("a legend entry"));
    }
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot.item(i));
            text && text->realVisibility() && !text->text().isEmpty())
            check(text->font(), QStringLiteral("text item '%1'").arg(text->text()));
    return problems;
}

// A recording shipped with the program, by file name.
QString shippedRecording(const QString& name) {
    return QStringLiteral(FUSESCOPE_SHIPPED_DIR "/") + name;
}

// The window sized to a screen of that many device pixels at the process's scale factor, shown;
// false when it is never exposed.
bool showFilling(QWidget& window, QSize screen) {
    const qreal ratio = window.devicePixelRatioF();
    return testsupport::showAt(
        window, QSize(qRound(screen.width() / ratio), qRound(screen.height() / ratio)));
}

// Rows of a table whose whole height is in sight.
int wholeRowsInSight(const QTableView& table) {
    int rows = 0;
    for (int row = 0; row < table.model()->rowCount(); ++row) {
        const QRect at = table.visualRect(table.model()->index(row, 0));
        if (at.isValid() && at.top() >= 0 && at.bottom() < table.viewport()->height()) ++rows;
    }
    return rows;
}

}  // namespace

class LayoutTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void windowFitsASmallScreen();
    void noTextCutOrOverlappingAfterEachPipeline_data();
    void noTextCutOrOverlappingAfterEachPipeline();
    void presentationLayoutReadsFromTheBackRow();
    void presentationShowsEveryVariantAfterALiveRun();
    void presentationKeepsEachControlsColumnWhole();
    void runChartsTurnLogarithmicPastTheSpread();
    void inputFieldsShowTheirValue_data();
    void inputFieldsShowTheirValue();
    void runStaysInSightAtEveryZoomStep();
    void stageCursorPassesUnderThePeakLabels();
    void memoryStageLeavesTheChartsRoom_data();
    void memoryStageLeavesTheChartsRoom();
    void longestReasonShowsWholeBesideTheTable_data();
    void longestReasonShowsWholeBesideTheTable();
    void labBuffersInSight_data();
    void labBuffersInSight();
};

// The projectors' screens, as for the memory stage.
void LayoutTest::labBuffersInSight_data() {
    memoryStageLeavesTheChartsRoom_data();
}

// The Lab chosen in a new window (as --show-tab Lab does): the buffers and passes the learner
// declares are in sight across their whole width, as wide as they need; the views scroll up and
// down on a short screen. A wider page on another tab (the size sweep) does not widen the Lab.
void LayoutTest::labBuffersInSight() {
    QFETCH(QSize, screen);
    MainWindow window(folder_->settings());
    // The supported projectors: 1280x720 at 150% at most, 1920x1080 at 150% and 200%.
    if (screen.width() < 1920 && window.devicePixelRatio() > 1.5)
        QSKIP(
            "1280x720 at 200% is not a supported screen: the Lab's row of actions alone is "
            "wider than its views");
    QVERIFY(showFilling(window, screen));
    auto* lab = window.findChild<LabView*>();
    QVERIFY(lab);
    const TabMatch named =
        findTabNamed({window.viewTabs(), window.chartTabs()}, QStringLiteral("Lab"));
    QVERIFY(named.tabs);
    QCOMPARE(named.tabs->widget(named.index), lab);
    named.tabs->setCurrentIndex(named.index);
    QCoreApplication::processEvents();
    QTest::qWait(20);
    const QWidget* buffers = lab->buffers();
    const QRect shown = testing::visibleRectInWindow(*buffers) & window.rect();
    QVERIFY2(shown.width() >= buffers->width() - 1 && shown.height() > 0 &&
                 buffers->width() >= buffers->minimumSizeHint().width(),
             qPrintable(QStringLiteral("%1x%2 of the %3x%4 panel in sight (it needs %5 px wide)")
                            .arg(shown.width())
                            .arg(shown.height())
                            .arg(buffers->width())
                            .arg(buffers->height())
                            .arg(buffers->minimumSizeHint().width())));
}

void LayoutTest::windowFitsASmallScreen() {
    MainWindow window(folder_->settings());
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
    MainWindow window(folder_->settings());
    QVERIFY(showFilling(window, screen));
    if (!window.backendsKnown()) {
        QSignalSpy probed(&window, &MainWindow::backendsProbed);
        QVERIFY(probed.wait(30000));
    }
    if (pipeline.endsWith(QStringLiteral(".json"))) {
        QCOMPARE(window.openRecording(shippedRecording(pipeline)), QString());
        window.showViews();
    } else {
        RunCommand command;
        command.request.target.backend = BackendChoice::Cpu;
        command.request.pipeline = pipeline.toStdString();
        // Small problems: N = 4096 for the elementwise pipelines, every dimension 9 (a multiple of
        // no tile) for the others.
        for (const DimensionSpec& dimension : findPipeline(command.request.pipeline)->dimensions)
            command.request.problem.dimensions[dimension.name] = dimension.name == "N" ? 4096 : 9;
        command.request.settings.repeats = 2;
        command.request.settings.warmup = 1;
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
                 QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-classroom-bf16-h200.json")),
             QString());

    QStringList problems;
    // The tab shown now: its plots and every label of the window.
    const auto checkShown = [&](const QString& tabName, QWidget* shown) {
        for (ChartView* chart : window.charts()) chart->rebuildNow();
        // The wait delivers what the worker sent (the explorer's compiled report may land in it,
        // late under a sanitizer); the layouts it asked for are carried out after it, before the
        // checks.
        QTest::qWait(20);
        testsupport::settleLayouts();
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
    // The Lab, chosen: its Build, Run and Cancel in sight, and room for code in the editor.
    if (auto* lab = window.findChild<QWidget*>(QStringLiteral("labView"))) {
        window.chartTabs()->setCurrentWidget(lab);
        QCoreApplication::processEvents();
        QTest::qWait(20);
        for (const QString& problem :
             testing::buttonProblems(window, {QStringLiteral("labBuild"), QStringLiteral("labRun"),
                                              QStringLiteral("labCancel")}))
            problems << QStringLiteral("[Lab] %1").arg(problem);
        // --show-tab Lab names this tab, not the Expression lab.
        const TabMatch named =
            findTabNamed({window.viewTabs(), window.chartTabs()}, QStringLiteral("Lab"));
        if (!named.tabs || named.tabs->widget(named.index) != lab)
            problems << QStringLiteral("[Lab] the tab named Lab is another");
        const auto* editor = lab->findChild<QWidget*>(QStringLiteral("labEditor"));
        const int lineHeight = editor ? editor->fontMetrics().lineSpacing() : 0;
        if (!editor || editor->height() < 6 * lineHeight)
            problems << QStringLiteral("[Lab] the editor shows fewer than 6 lines (%1 px)")
                            .arg(editor ? editor->height() : 0);
        // A blank kernel on a GPU: the Counters box and the expression's field fit as well.
        if (auto* labView = qobject_cast<LabView*>(lab)) {
            labView->setGpu(true, QString());
            labView->loadStarter(
                labView->starterCombo()->findData(QStringLiteral("your_own_blank.cu")));
            QTest::qWait(20);
            testsupport::settleLayouts();
            for (const QString& problem : testing::buttonProblems(
                     window, {QStringLiteral("labRun"), QStringLiteral("labCounters"),
                              QStringLiteral("labCancel")}))
                problems << QStringLiteral("[Lab, blank kernel] %1").arg(problem);
            for (const QString& problem : testing::labelProblems(window))
                problems << QStringLiteral("[Lab, blank kernel] %1").arg(problem);
            // The field may run past the tab's edge at 150%, but a chain must be readable in it.
            const QWidget* expression = labView->expressionEdit();
            const int shown = testing::visibleRectInWindow(*expression).width();
            if (shown <
                expression->fontMetrics().horizontalAdvance(QStringLiteral("out = silu(g) * u")))
                problems
                    << QStringLiteral("[Lab] %1 px of the expression field in sight").arg(shown);
            labView->loadStarter(0);
            labView->setGpu(window.backendSummary().cudaUsable, window.backendSummary().cudaReason);
        }
        window.chartTabs()->setCurrentIndex(0);
    } else {
        problems << QStringLiteral("the Lab view is missing");
    }
    // Run and Cancel stay in sight: below the views' least size the views scroll, not the
    // window.
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

// The presentation layout on a 1280x720 projector with the MLP prefill recording: every view and
// chart it shows has text of at least 16 pixels, axis labels with their units, and the Variants
// table has every MLP variant in sight.
void LayoutTest::presentationLayoutReadsFromTheBackRow() {
    // The supported projectors, 1280x720 at scale 1 and 1920x1080 at 150 %, both give the window
    // 1280x720 logical pixels; at each scale ctest runs (1, 1.5, 2) the window gets that, and its
    // text at least 16 logical pixels (16 screen pixels times the scale).
    const QSize logical(1280, 720);
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, logical));
    QCOMPARE(window.openRecording(shippedRecording(QString::fromLatin1(kPrefillRecording))),
             QString());
    window.setPresentation(true);
    QVERIFY(window.presentation());
    QCOMPARE(folder_->settings()->value(QStringLiteral("view/presentation")).toBool(), true);
    QCoreApplication::processEvents();
    QTest::qWait(50);

    QStringList problems;
    // The run panel folds away.
    auto* panel = window.findChild<QWidget*>(QStringLiteral("runPanelColumn"));
    QVERIFY(panel);
    if (panel->isVisible() && panel->width() > 0)
        problems << QStringLiteral("the run panel is %1 px wide").arg(panel->width());

    // The tabs not presented keep their bar in sight, to be clicked.
    const auto foldedBarProblem = [](QTabWidget* folded) {
        const int least = folded->tabBar()->sizeHint().height();
        return folded->height() < least || !folded->tabBar()->isVisible()
                   ? QStringLiteral("the folded %1 are %2 px high, their bar needs %3")
                         .arg(folded->objectName())
                         .arg(folded->height())
                         .arg(least)
                   : QString();
    };
    if (const QString problem = foldedBarProblem(window.chartTabs()); !problem.isEmpty())
        problems << problem;
    // The Results tab as the layout first shows it.
    const PipelineSpec* mlp = findPipeline("mlp");
    QVERIFY(mlp);
    auto* variants = window.findChild<QTableView*>(QStringLiteral("variantTable"));
    QVERIFY(variants);
    QCOMPARE(variants->model()->rowCount(), static_cast<int>(mlp->variants.size()));
    const int inSight = wholeRowsInSight(*variants);
    if (inSight < variants->model()->rowCount())
        problems << QStringLiteral("the Variants table shows %1 of %2 rows (%3 px high)")
                        .arg(inSight)
                        .arg(variants->model()->rowCount())
                        .arg(variants->viewport()->height());
    // Under them the Kernels table keeps whole rows, and its columns, wider than it, their
    // scroll bar: no row or column runs under the bar or off the pane unreachable.
    auto* kernels = window.findChild<QTableView*>(QStringLiteral("kernelTable"));
    QVERIFY(kernels);
    if (wholeRowsInSight(*kernels) < 2)
        problems << QStringLiteral("the Kernels table shows %1 whole rows (%2 px high)")
                        .arg(wholeRowsInSight(*kernels))
                        .arg(kernels->viewport()->height());
    // Each column, the last one too, at least as wide as its title.
    for (QTableView* table : {variants, kernels}) {
        QHeaderView* header = table->horizontalHeader();
        const int last = header->logicalIndex(header->count() - 1);
        const int needed = header->sectionSizeHint(last);
        if (header->sectionSize(last) < needed)
            problems << QStringLiteral("%1's last column is %2 px of the %3 its text needs")
                            .arg(table->objectName())
                            .arg(header->sectionSize(last))
                            .arg(needed);
    }
    if (kernels->horizontalHeader()->length() > kernels->viewport()->width() &&
        !kernels->horizontalScrollBar()->isVisible())
        problems << QStringLiteral(
                        "the Kernels table's columns run %1 px past it with no scroll bar")
                        .arg(kernels->horizontalHeader()->length() - kernels->viewport()->width());
    // The verdict is read, not hovered: the lesson kernel's cause is on screen, uncut.
    auto* verdict = window.findChild<QLabel*>(QStringLiteral("fusionVerdict"));
    QVERIFY(verdict);
    if (!verdict->text().contains(QLatin1String("lesson_fused is")) ||
        verdict->height() < verdict->heightForWidth(verdict->width()))
        problems << QStringLiteral("the fusion verdict shows '%1' in %2 px of the %3 it needs")
                        .arg(verdict->text())
                        .arg(verdict->height())
                        .arg(verdict->heightForWidth(verdict->width()));

    // Tables: Results (variants and kernels) and Model vs measured.
    QTabWidget* views = window.viewTabs();
    for (int index = 0; index < views->count(); ++index) {
        if (!views->isTabVisible(index)) continue;
        views->setCurrentIndex(index);
        QCoreApplication::processEvents();
        QTest::qWait(50);
        for (QTableView* table : views->currentWidget()->findChildren<QTableView*>()) {
            if (!table->isVisible() || table->model()->rowCount() == 0) continue;
            // The header paints on its viewport, in the viewport's font.
            for (const QWidget* part :
                 {static_cast<const QWidget*>(table),
                  static_cast<const QWidget*>(table->horizontalHeader()->viewport())}) {
                const int pixels = pixelHeight(part->font());
                if (pixels < kLeastPresentationPixels)
                    problems << QStringLiteral("[%1] table %2 (%3): text is %4 px")
                                    .arg(views->tabText(index), table->objectName(),
                                         QString::fromLatin1(part->metaObject()->className()))
                                    .arg(pixels);
            }
        }
    }
    // Charts: every chart tab, each filling the pane.
    QTabWidget* charts = window.chartTabs();
    for (int index = 0; index < charts->count(); ++index) {
        if (!charts->isTabVisible(index)) continue;
        charts->setCurrentIndex(index);
        for (ChartView* chart : window.charts()) chart->rebuildNow();
        QCoreApplication::processEvents();
        QTest::qWait(50);
        for (QCustomPlot* plot : charts->currentWidget()->findChildren<QCustomPlot*>()) {
            if (!plot->isVisible() || plot->width() < 2) continue;
            plot->replot(QCustomPlot::rpImmediateRefresh);
            for (const QString& problem : smallOrShortenedPlotText(*plot, kLeastPresentationPixels))
                problems << QStringLiteral("[%1] %2").arg(charts->tabText(index), problem);
            for (const QString& problem : testing::plotProblems(*plot))
                problems << QStringLiteral("[%1] %2").arg(charts->tabText(index), problem);
        }
        if (const QString problem = foldedBarProblem(window.viewTabs()); !problem.isEmpty())
            problems << QStringLiteral("[%1] %2").arg(charts->tabText(index), problem);
        // A column of controls beside the chart scrolls up and down, never sideways: each field
        // and button lies whole inside it, at the presentation's larger text too.
        for (const QScrollArea* column : charts->currentWidget()->findChildren<QScrollArea*>(
                 QRegularExpression(QStringLiteral("^(sweepControls|explorerControlsScroll)$"))))
            for (const QString& problem : testing::controlsCutProblems(*column))
                problems << QStringLiteral("[%1] %2").arg(charts->tabText(index), problem);
        if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
            window.grab().save(QStringLiteral("%1/presentation-%2.png")
                                   .arg(shots, charts->tabText(index).replace(' ', '_')));
    }
    problems.removeDuplicates();
    if (!problems.isEmpty()) qInfo().noquote() << problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problems, the first: %2")
                                                .arg(problems.size())
                                                .arg(problems.value(0))));

    // The zoom grows chart text too, past the presentation's least size.
    ChartView* timeChart = nullptr;
    for (ChartView* chart : window.charts())
        if (chart->objectName() == QLatin1String("time_per_variant")) timeChart = chart;
    QVERIFY(timeChart);
    const int before = pixelHeight(timeChart->yAxis->tickLabelFont());
    window.setZoom(2.0);
    QCoreApplication::processEvents();
    const int zoomed = pixelHeight(timeChart->yAxis->tickLabelFont());
    window.setZoom(1.0);
    QVERIFY2(zoomed >= before * 3 / 2,
             qPrintable(QStringLiteral("tick labels %1 px, zoomed %2 px").arg(before).arg(zoomed)));

    // Leaving it brings the run panel back.
    window.setPresentation(false);
    QCoreApplication::processEvents();
    QVERIFY(panel->width() > 0);
}

// The prefill recording's lesson kernel takes 140 times the others' time: on a linear axis their
// bars lie flat. The bytes and time charts turn logarithmic by themselves there, and follow the

// A size sweep opened, then the presentation layout, then the window shown (`--open
// --presentation`): the sweep's and the explorer's columns of controls grow with the larger text,
// and each field, button and variant title lies whole inside its column.
void LayoutTest::presentationKeepsEachControlsColumnWhole() {
    MainWindow window(folder_->settings());
    QCOMPARE(window.openRecording(
                 shippedRecording(QStringLiteral("h200-swiglu-size-sweep.fusescope.json"))),
             QString());
    window.setPresentation(true);
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    QStringList problems;
    QTabWidget* charts = window.chartTabs();
    for (int index = 0; index < charts->count(); ++index) {
        QScrollArea* column = charts->widget(index)
                                  ->findChildren<QScrollArea*>(QRegularExpression(
                                      QStringLiteral("^(sweepControls|explorerControlsScroll)$")))
                                  .value(0);
        if (!column || !charts->isTabVisible(index)) continue;
        charts->setCurrentIndex(index);
        QCoreApplication::processEvents();
        QTest::qWait(50);
        for (const QString& problem : testing::controlsCutProblems(*column))
            problems << QStringLiteral("[%1] %2").arg(charts->tabText(index), problem);
        if (auto* variants = column->findChild<QListWidget*>(QStringLiteral("sweepVariants")))
            for (int row = 0; row < variants->count(); ++row)
                if (variants->visualItemRect(variants->item(row)).bottom() >=
                    variants->viewport()->height())
                    problems << QStringLiteral("the sweep's variant '%1' is below its list")
                                    .arg(variants->item(row)->text());
    }
    if (!problems.isEmpty()) qInfo().noquote() << problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problems, the first: %2")
                                                .arg(problems.size())
                                                .arg(problems.value(0))));
}

// A run that ends in the presentation layout: its rows and its longer verdict arrive at the end,
// and every variant's row is still in sight under the whole verdict.
void LayoutTest::presentationShowsEveryVariantAfterALiveRun() {
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    if (!window.backendsKnown()) {
        QSignalSpy probed(&window, &MainWindow::backendsProbed);
        QVERIFY(probed.wait(30000));
    }
    window.setPresentation(true);
    RunCommand command;
    command.request.target.backend = BackendChoice::Cpu;
    command.request.pipeline = "mlp";
    const PipelineSpec* mlp = findPipeline(command.request.pipeline);
    QVERIFY(mlp);
    for (const VariantSpec& variant : mlp->variants)
        command.request.variants.push_back(variant.name);
    command.request.problem.dimensions = {{"M", 64}, {"H", 256}, {"I", 704}};
    command.request.settings.repeats = 2;
    command.request.settings.warmup = 1;
    QSignalSpy ended(&window, &MainWindow::runEnded);
    window.startCommand(command);
    QVERIFY(ended.wait(kRunTimeoutMs));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QCoreApplication::processEvents();
    QTest::qWait(50);
    auto* variants = window.findChild<QTableView*>(QStringLiteral("variantTable"));
    QVERIFY(variants);
    QCOMPARE(variants->model()->rowCount(), static_cast<int>(mlp->variants.size()));
    QVERIFY2(wholeRowsInSight(*variants) == variants->model()->rowCount(),
             qPrintable(QStringLiteral("the Variants table shows %1 of %2 rows (%3 px high)")
                            .arg(wholeRowsInSight(*variants))
                            .arg(variants->model()->rowCount())
                            .arg(variants->viewport()->height())));
}

// View menu's choice (remembered) either way.
void LayoutTest::runChartsTurnLogarithmicPastTheSpread() {
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    QCOMPARE(window.openRecording(shippedRecording(QString::fromLatin1(kPrefillRecording))),
             QString());
    QList<ChartView*> valueCharts;
    for (ChartView* chart : window.charts())
        if (chart->objectName() == QLatin1String("bytes_per_kernel") ||
            chart->objectName() == QLatin1String("time_per_variant"))
            valueCharts << chart;
    QCOMPARE(valueCharts.size(), 2);
    const auto scales = [&] {
        QStringList shown;
        for (ChartView* chart : valueCharts) {
            chart->rebuildNow();
            shown << QStringLiteral("%1 %2 '%3'")
                         .arg(chart->objectName(),
                              chart->yAxis->scaleType() == QCPAxis::stLogarithmic
                                  ? QStringLiteral("log")
                                  : QStringLiteral("linear"),
                              chart->yAxis->label());
        }
        return shown.join(QStringLiteral(", "));
    };
    QCOMPARE(window.valueScale(), ValueScale::Automatic);
    QCOMPARE(scales(), QStringLiteral("bytes_per_kernel log 'bytes (GB, log)', "
                                      "time_per_variant log 'time (ms, log)'"));
    // The bandwidth over time follows the same menu.
    auto* bandwidth = window.findChild<live::LiveBandwidthChart*>(QStringLiteral("liveBandwidth"));
    QVERIFY(bandwidth);
    QCPAxis* rate = bandwidth->plot()->graph(0)->valueAxis();
    window.setValueScale(ValueScale::Logarithmic);
    QTRY_COMPARE(rate->scaleType(), QCPAxis::stLogarithmic);
    window.setValueScale(ValueScale::Linear);
    QTRY_COMPARE(rate->scaleType(), QCPAxis::stLinear);
    QCOMPARE(scales(), QStringLiteral("bytes_per_kernel linear 'bytes (GB)', "
                                      "time_per_variant linear 'time (ms)'"));
    QCOMPARE(folder_->settings()->value(QStringLiteral("view/valueScale")).toInt(),
             static_cast<int>(ValueScale::Linear));
    // SwiGLU's variants lie within 30x of each other: linear by themselves, logarithmic when
    // asked.
    window.setValueScale(ValueScale::Automatic);
    QCOMPARE(window.openRecording(
                 QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-2e26.fusescope.json")),
             QString());
    QVERIFY2(scales().contains(QStringLiteral("time_per_variant linear")), qPrintable(scales()));
    window.setValueScale(ValueScale::Logarithmic);
    QVERIFY2(scales().contains(QStringLiteral("time_per_variant log")), qPrintable(scales()));
    // A new window takes the remembered choice.
    MainWindow again(folder_->settings());
    QCOMPARE(again.valueScale(), ValueScale::Logarithmic);
}

void LayoutTest::inputFieldsShowTheirValue_data() {
    QTest::addColumn<QString>("recording");
    QTest::addColumn<QSize>("screen");
    for (const char* name : {kPrefillRecording, "h200-swiglu-2e26.fusescope.json"})
        for (const QSize screen : {QSize(1280, 720), QSize(1920, 1080)})
            QTest::addRow("%s %dx%d", name, screen.width(), screen.height())
                << QString::fromLatin1(name) << screen;
}

// The run panel's text fields show their value after a recording opens: N and the dimensions
// whole (M, which tells decode from prefill, is never cut off), the tiles from their start.
void LayoutTest::inputFieldsShowTheirValue() {
    QFETCH(QString, recording);
    QFETCH(QSize, screen);
    MainWindow window(folder_->settings());
    QVERIFY(showFilling(window, screen));
    QCOMPARE(window.openRecording(shippedRecording(recording)), QString());
    QCoreApplication::processEvents();
    QTest::qWait(50);
    QStringList problems;
    int checked = 0;
    for (QLineEdit* field : window.runPanel()->findChildren<QLineEdit*>()) {
        if (!field->isVisible() || field->text().isEmpty() ||
            qobject_cast<QSpinBox*>(field->parentWidget()))
            continue;
        ++checked;
        // QLineEdit draws its text inside the frame's contents less its own 2-pixel margins.
        const QMargins margins = field->textMargins();
        const int room = field->contentsRect().width() - margins.left() - margins.right() - 4 -
                         2 * field->style()->pixelMetric(QStyle::PM_DefaultFrameWidth);
        // The tiles are wider than any panel: their first value shows, from the start, and the
        // whole value is in the tooltip.
        const bool tiles = field->objectName() == QLatin1String("tuningEdit");
        const QString shown = tiles ? field->text().section(QLatin1Char(','), 0, 0) : field->text();
        if (tiles && (field->cursorPosition() != 0 || !field->toolTip().contains(field->text())))
            problems << QStringLiteral("%1 '%2' shows from %3, tooltip '%4'")
                            .arg(field->objectName(), field->text())
                            .arg(field->cursorPosition())
                            .arg(field->toolTip());
        const int needed = field->fontMetrics().horizontalAdvance(shown);
        if (needed > room)
            problems << QStringLiteral("%1 '%2' needs %3 px, has %4")
                            .arg(field->objectName(), field->text())
                            .arg(needed)
                            .arg(room);
    }
    QVERIFY(checked > 0);
    if (!problems.isEmpty()) qInfo().noquote() << problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
}

QTEST_MAIN(LayoutTest)
// Zoom in (Ctrl+=) press after press up to the most on a 1280x720 screen, in the normal layout
// with the prefill recording open: Run and Cancel stay wholly in sight at every step.
void LayoutTest::runStaysInSightAtEveryZoomStep() {
    MainWindow window(folder_->settings());
    QVERIFY(showFilling(window, QSize(1280, 720)));
    QCOMPARE(window.openRecording(shippedRecording(QString::fromLatin1(kPrefillRecording))),
             QString());
    window.showViews();
    QStringList problems;
    for (int press = 0; press < 20; ++press) {
        QCoreApplication::processEvents();
        QTest::qWait(20);
        QStringList shown = testing::buttonProblems(
            window, {QStringLiteral("runButton"), QStringLiteral("cancelButton")});
        for (const char* name : {"runButton", "cancelButton"}) {
            const auto* button = window.findChild<QWidget*>(QString::fromLatin1(name));
            if (button && !window.rect().contains(testing::visibleRectInWindow(*button)))
                shown << QStringLiteral("button '%1' lies outside the window").arg(name);
        }
        // The panel's fields grow with the zoom and stay whole in its column, which the views
        // beside it leave whole.
        if (const auto* panel = window.findChild<QScrollArea*>(QStringLiteral("runPanelScroll"))) {
            shown << testing::controlsCutProblems(*panel);
            if (const QRect inSight = testing::visibleRectInWindow(*panel);
                inSight.width() < panel->width())
                shown << QStringLiteral("the run panel's column shows %1 of its %2 px")
                             .arg(inSight.width())
                             .arg(panel->width());
        }
        for (const QString& problem : shown)
            problems
                << QStringLiteral("zoom %1 %: %2").arg(qRound(window.zoom() * 100)).arg(problem);
        if (window.zoom() >= kMaxZoom) {
            // The formula's own fixed-width font grows with the zoom too.
            const auto* formula = window.findChild<QLabel*>(QStringLiteral("pipelineFormula"));
            if (!formula || formula->font().pointSizeF() < window.runPanel()->font().pointSizeF())
                problems << QStringLiteral(
                                "the pipeline's formula is smaller than the panel's "
                                "text at zoom %1 %")
                                .arg(qRound(window.zoom() * 100));
            if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS");
                !shots.isEmpty())
                window.grab().save(QStringLiteral("%1/zoom-most.png").arg(shots));
            break;
        }
        window.setZoom(window.zoom() * kZoomStep);
    }
    QCOMPARE(window.zoom(), kMaxZoom);
    window.setZoom(1.0);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// The memory stage halfway through both runs puts each cursor line on the allocation chart
// through the middle of its run's span, where that run's peak label stands: no pixel of the
// cursor's colour may show inside a label.
void LayoutTest::stageCursorPassesUnderThePeakLabels() {
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1600, 1000)));
    QCOMPARE(window.openRecording(shippedRecording(QString::fromLatin1(kPrefillRecording))),
             QString());
    window.showViews();
    ChartView* allocation = nullptr;
    for (ChartView* chart : window.charts())
        if (chart->objectName() == QLatin1String("allocation_in_flight")) allocation = chart;
    QVERIFY(allocation);
    auto* stage = window.findChild<MemoryStageView*>(QStringLiteral("memoryStage"));
    QVERIFY(stage);
    QCOMPARE(stage->paneCount(), 2);
    allocation->rebuildNow();
    QCoreApplication::processEvents();
    // Both panes' runs share one stage clock: halfway through the left run is not halfway
    // through the right one, so each side is checked at its own middle.
    const QColor cursorColours[] = {QColor(148, 103, 189), QColor(23, 190, 207)};
    QStringList problems;
    for (int side = 0; side < 2; ++side) {
        const qint64 end = stage->stage()->renderer().timeline(side).endNs;
        stage->seek(end / 2);
        QTest::qWait(60);
        QCoreApplication::processEvents();
        allocation->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = allocation->grab().toImage();
        const qreal scale = image.devicePixelRatio();
        int labels = 0;
        for (int i = 0; i < allocation->itemCount(); ++i) {
            auto* label = qobject_cast<QCPItemText*>(allocation->item(i));
            if (!label || !label->visible() || !label->text().contains(QStringLiteral("peak")))
                continue;
            ++labels;
            const QRectF box =
                QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                    .normalized()
                    .adjusted(1, 1, -1, -5);  // the padding under the text
            int crossed = 0;
            for (int y = qCeil(box.top() * scale); y < qFloor(box.bottom() * scale); ++y)
                for (int x = qCeil(box.left() * scale); x < qFloor(box.right() * scale); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    const QColor& cursor = cursorColours[side];
                    if (std::abs(pixel.red() - cursor.red()) +
                            std::abs(pixel.green() - cursor.green()) +
                            std::abs(pixel.blue() - cursor.blue()) <
                        40)
                        ++crossed;
                }
            if (crossed > 0)
                problems << QStringLiteral("side %1: %2 cursor pixels inside '%3'")
                                .arg(side)
                                .arg(crossed)
                                .arg(label->text().replace(QLatin1Char('\n'), QLatin1Char(' ')));
        }
        QVERIFY(labels >= 2);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void LayoutTest::memoryStageLeavesTheChartsRoom_data() {
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QString>("recording");
    // Decode's kernels have the longest names (gemv_gate_up_silu, swiglu_mlp_lesson) on end.
    for (const char* recording : {kPrefillRecording, kDecodeRecording})
        for (const QSize screen : {QSize(1280, 720), QSize(1920, 1080)})
            QTest::addRow("%s %dx%d", recording, screen.width(), screen.height())
                << screen << QString::fromLatin1(recording);
}

// The normal layout with the prefill recording and the Memory stage tab chosen (it takes most of
// the height): the run charts under it keep room for their data and their whole axis titles, and
// the stage's comparison (the two times and which is faster) is shown whole, wrapped if need be.
void LayoutTest::memoryStageLeavesTheChartsRoom() {
    QFETCH(QSize, screen);
    QFETCH(QString, recording);
    MainWindow window(folder_->settings());
    const qreal ratio = window.devicePixelRatioF();
    // The projector's cases: 1280x720 at 100 %, 1920x1080 at 100 % and 150 %. A smaller window
    // in logical pixels leaves the stage and three charts side by side too narrow a column.
    if (screen.width() / ratio < 1280 - 1) QSKIP("a window narrower than 1280 logical pixels");
    QVERIFY(showFilling(window, screen));
    QCOMPARE(window.openRecording(shippedRecording(recording)), QString());
    window.showViews();
    window.chartTabs()->setCurrentIndex(0);
    window.viewTabs()->setCurrentWidget(window.findChild<QWidget*>(QStringLiteral("memoryStage")));
    QStringList problems;
    for (ChartView* chart : window.charts()) chart->rebuildNow();
    // Two rounds: a chart's least height is known once it is laid out.
    for (int round = 0; round < 2; ++round) {
        QCoreApplication::processEvents();
        QTest::qWait(50);
        for (ChartView* chart : window.charts()) chart->replot(QCustomPlot::rpImmediateRefresh);
    }
    for (ChartView* chart : window.charts()) {
        const double line = QFontMetricsF(chart->font()).height();
        if (chart->axisRect()->height() < (kLeastPlotLines - 0.5) * line)
            problems << QStringLiteral("%1: the plot is %2 px high (text lines of %3 px)")
                            .arg(chart->objectName())
                            .arg(chart->axisRect()->height())
                            .arg(line);
        // Nothing cut by the chart's edge or drawn over other text (the kernels' names on end).
        problems << testing::plotProblems(*chart);
        for (QCPAxis* axis : chart->axisRect()->axes()) {
            const QString full = axis->property("fusescopeFullText").toString();
            if (axis->realVisibility() && !full.isEmpty() && full != axis->label())
                problems << QStringLiteral("%1: axis label '%2' is shown as '%3'")
                                .arg(chart->objectName(), full, axis->label());
        }
    }
    auto* stage = window.findChild<MemoryStageWidget*>();
    QVERIFY(stage && stage->hasTimelines());
    StageRenderer renderer = stage->renderer();
    QString drawn;
    for (const StageRenderer::DrawnText& text : renderer.textLayout(stage->size(), 0))
        drawn += text.text + QLatin1Char('\n');
    if (!drawn.contains(QStringLiteral("× faster")) || !drawn.contains(QStringLiteral(" ms")))
        problems << QStringLiteral("the stage's comparison is cut: %1").arg(drawn.left(300));
    for (const QString& line : drawn.split(QLatin1Char('\n')))
        if (line.contains(QStringLiteral("lesson_fused")) && line.contains(QChar(0x2026)))
            problems << QStringLiteral("the stage's comparison is cut: '%1'").arg(line);
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
        window.grab().save(QStringLiteral("%1/stage-room-%2-%3x%4.png")
                               .arg(shots, recording.section(QLatin1Char('.'), 0, 0))
                               .arg(screen.width())
                               .arg(screen.height()));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void LayoutTest::longestReasonShowsWholeBesideTheTable_data() {
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<bool>("presentation");
    for (const QSize screen : {QSize(1280, 720), QSize(1920, 1080)})
        for (const bool presentation : {false, true})
            QTest::addRow("%dx%d%s", screen.width(), screen.height(),
                          presentation ? "-presentation" : "")
                << screen << presentation;
}

// Model vs measured with the row whose reasons are longest selected (the lesson kernel counted
// five times: re-reads, sectors and its launches' range): the words under the table are in sight
// or a scroll away, and the table above them keeps rows in sight, the selected one among them.
void LayoutTest::longestReasonShowsWholeBesideTheTable() {
    QFETCH(QSize, screen);
    QFETCH(bool, presentation);
    MainWindow window(folder_->settings());
    if (screen.width() / window.devicePixelRatioF() < 1280 - 1)
        QSKIP("a window narrower than 1280 logical pixels");
    QVERIFY(showFilling(window, screen));
    QCOMPARE(window.openRecording(shippedRecording(QString::fromLatin1(kCountedRecording))),
             QString());
    window.setPresentation(presentation);
    window.viewTabs()->setCurrentWidget(
        window.findChild<QWidget*>(QStringLiteral("measurementPanel")));
    auto* table = window.findChild<QTableWidget*>(QStringLiteral("measurementTable"));
    QVERIFY(table && table->rowCount() > 0);
    int longest = -1;
    qsizetype longestLength = 0;
    for (int row = 0; row < table->rowCount(); ++row)
        if (const QTableWidgetItem* reasons = table->item(row, MeasurementPanel::Reasons);
            reasons && reasons->toolTip().size() > longestLength) {
            longest = row;
            longestLength = reasons->toolTip().size();
        }
    QVERIFY(longest >= 0);
    table->setCurrentCell(longest, MeasurementPanel::Kernel);
    QCoreApplication::processEvents();
    QTest::qWait(50);

    auto* why = window.findChild<QLabel*>(QStringLiteral("measurementWhy"));
    QVERIFY(why);
    QStringList problems;
    if (!why->text().contains(QStringLiteral("one draw from this range")))
        problems << QStringLiteral("the selected row's words lack its launches' range: '%1'")
                        .arg(why->text().left(200));
    // Whole in sight, or in an area that scrolls to the rest.
    auto* area = window.findChild<QScrollArea*>(QStringLiteral("measurementWhyArea"));
    QVERIFY(area);
    const int shown = area->viewport()->height();
    const int needed = why->heightForWidth(area->viewport()->width());
    if (!why->isVisible() || (shown < needed && !area->verticalScrollBar()->isVisible()))
        problems << QStringLiteral("the reasons show in %1 px of the %2 they need, unscrollable")
                        .arg(shown)
                        .arg(needed);
    if (shown < 2 * why->fontMetrics().lineSpacing())
        problems << QStringLiteral("the reasons have %1 px, under two lines").arg(shown);
    const QRect selected = table->visualRect(table->currentIndex());
    if (!selected.isValid() || selected.top() < 0 ||
        selected.bottom() >= table->viewport()->height())
        problems << QStringLiteral("the selected row is out of sight (at %1 of %2 px)")
                        .arg(selected.top())
                        .arg(table->viewport()->height());
    if (wholeRowsInSight(*table) < 2)
        problems << QStringLiteral("the table above them shows %1 whole rows (%2 px high)")
                        .arg(wholeRowsInSight(*table))
                        .arg(table->viewport()->height());
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
        window.grab().save(QStringLiteral("%1/longest-reason-%2x%3%4.png")
                               .arg(shots)
                               .arg(screen.width())
                               .arg(screen.height())
                               .arg(presentation ? QStringLiteral("-presentation") : QString()));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

#include "layout_test.moc"
