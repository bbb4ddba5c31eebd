// Compare with two size sweeps: the shipped H200 sweep of SwiGLU beside a CPU sweep of it (made
// with fusescope-cli on the CPU backend, tests/ui/data): the ratio table against the model's
// comparison and the fits of both, the one chart of both with the recordings named in its legend,
// the refusals of a sweep against runs and of sweeps of different pipelines, and no text cut or
// overlapping on 1280x720 and 1920x1080 screens (ctest runs it at scale 1 and 1.5).

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include "layout_checks.h"
#include "model/comparison.h"
#include "model/pipeline_catalog.h"
#include "model/sweep_comparison.h"
#include "model/sweep_json.h"
#include "support/window_test_case.h"
#include "ui/charts/chart_interaction.h"
#include "ui/compare/compare_window.h"
#include "ui/compare/sweep_compare_view.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

const QString kGpuSweep =
    QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-size-sweep.fusescope.json");
const QString kCpuSweep = QStringLiteral(FUSESCOPE_UI_TEST_DATA_DIR "/swiglu-sweep-cpu.json");
const QString kAffineSweep = QStringLiteral(FUSESCOPE_MODEL_TEST_DATA_DIR "/affine-sweep-cpu.json");
const QString kRuns = QStringLiteral(FUSESCOPE_MODEL_TEST_DATA_DIR "/swiglu-cpu.fusescope.json");

model::SweepFile loaded(const QString& path) {
    Result<model::SweepFile> sweep = model::loadSweepFile(path);
    if (!sweep) qFatal("%s", sweep.status().message().c_str());
    return *sweep;
}

QStringList legendNames(QCustomPlot& plot) {
    QStringList names;
    for (int i = 0; i < plot.legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i)))
            names << item->plottable()->name();
    return names;
}

}  // namespace

class CompareSweepsTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void ratiosPerVariantAndSizeAsTheModelComputes();
    void theSizeColumnIsNamedByTheSweptDimension();
    void oneChartOfBothNamesTheRecordings();
    void refusesASweepAgainstRunsAndOtherPipelines();
    void nothingCutOrOverlapping_data();
    void nothingCutOrOverlapping();

  private:
    CompareWindow* openBoth(MainWindow& window);
};

CompareWindow* CompareSweepsTest::openBoth(MainWindow& window) {
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return nullptr;
    if (!window.openRecording(kGpuSweep).isEmpty()) return nullptr;
    const QString error = window.compareWith(kCpuSweep);
    if (!error.isEmpty()) qWarning("%s", qPrintable(error));
    return error.isEmpty() ? window.compareWindow() : nullptr;
}

// The size column is headed by the dimension the pipeline's sweeps vary, as the registry names
// it (the MLP's sweeps vary M, the elementwise chains' N).
void CompareSweepsTest::theSizeColumnIsNamedByTheSweptDimension() {
    QSet<QString> headings;
    for (const PipelineSpec& pipeline : pipelines()) {
        model::SweepFile a = loaded(kCpuSweep);
        model::SweepFile b = loaded(kCpuSweep);
        a.report.pipeline = b.report.pipeline = pipeline.name;
        const Result<model::SweepComparison> comparison = model::compareSweeps(a, b);
        QVERIFY(comparison);
        SweepCompareView view;
        view.setComparison(*comparison);
        const QString heading =
            view.ratioTable()->horizontalHeaderItem(SweepCompareView::Size)->text();
        QCOMPARE(heading, QString::fromStdString(pipeline.sizeDimension));
        headings << heading;
    }
    QVERIFY(headings.size() >= 2);  // not one word for every pipeline
}

void CompareSweepsTest::ratiosPerVariantAndSizeAsTheModelComputes() {
    MainWindow window(folder_->settings());
    CompareWindow* compare = openBoth(window);
    QVERIFY(compare && compare->isVisible());
    QVERIFY(compare->showsSweeps());
    const Result<model::SweepComparison> expected =
        model::compareSweeps(loaded(kGpuSweep), loaded(kCpuSweep));
    QVERIFY(expected);
    // The H200 sweep goes to 2^28, the CPU sweep to 2^22: 4096 to 2^22 shared.
    QCOMPARE(expected->sharedSizes.size(), 11);
    QCOMPARE(expected->sizesOnlyInA.size(), 6);
    QVERIFY(expected->sizesOnlyInB.isEmpty());
    QCOMPARE(expected->variants.size(), 3);

    QTableWidget* table = compare->sweepView()->ratioTable();
    int rows = 0;
    for (const model::SweepVariantComparison& variant : expected->variants)
        rows += variant.sizes.size();
    QCOMPARE(table->rowCount(), rows);
    QCOMPARE(rows, 3 * 17);
    int row = 0;
    int onlyInA = 0;
    for (const model::SweepVariantComparison& variant : expected->variants)
        for (const model::SweepSizeComparison& size : variant.sizes) {
            QCOMPARE(table->item(row, SweepCompareView::Variant)->text(), variant.variant);
            if (size.inBoth()) {
                QCOMPARE(table->item(row, SweepCompareView::TimeRatio)->text(),
                         model::formatRatio(size.timeRatio()));
                QCOMPARE(table->item(row, SweepCompareView::GBpsRatio)->text(),
                         model::formatRatio(size.gbpsRatio()));
                // The same bytes at the same N: the bandwidth ratio is the inverse of the time's.
                QVERIFY(qAbs(*size.timeRatio() * *size.gbpsRatio() - 1.0) < 1e-9);
            } else {
                QCOMPARE(table->item(row, SweepCompareView::TimeRatio)->text(),
                         QStringLiteral("only in A"));
                QCOMPARE(table->item(row, SweepCompareView::TimeB)->text(), QStringLiteral("—"));
                ++onlyInA;
            }
            ++row;
        }
    QCOMPARE(onlyInA, 3 * 6);

    // The fits of both, per variant: the fitted bandwidths' ratio as the model computes it.
    QTableWidget* fits = compare->sweepView()->fitTable();
    QCOMPARE(fits->rowCount(), 3);
    for (int fitRow = 0; fitRow < 3; ++fitRow) {
        const model::SweepVariantComparison& variant = expected->variants[fitRow];
        QCOMPARE(fits->item(fitRow, 0)->text(), variant.variant);
        QVERIFY(variant.fitBandwidthRatio());
        QCOMPARE(fits->item(fitRow, 5)->text(), model::formatRatio(variant.fitBandwidthRatio()));
    }

    // The header names each side by device, backend and day, and the file.
    const QString header = compare->header()->text();
    QVERIFY2(header.contains(QStringLiteral("NVIDIA H200 (CUDA), 2026-11-30")), qPrintable(header));
    QVERIFY2(header.contains(expected->labelB), qPrintable(header));
    QVERIFY(expected->labelB.contains(QStringLiteral("CPU backend")));
    QVERIFY(header.contains(QStringLiteral("swiglu-sweep-cpu.json")));
    QVERIFY(compare->windowTitle().contains(QStringLiteral("swiglu-sweep-cpu.json")));
}

void CompareSweepsTest::oneChartOfBothNamesTheRecordings() {
    MainWindow window(folder_->settings());
    CompareWindow* compare = openBoth(window);
    QVERIFY(compare);
    SweepChart* chart = compare->sweepView()->chart();
    const SweepChartData& data = chart->data();
    QVERIFY(data.comparesRecordings());
    QCOMPARE(data.series.size(), 6);  // three variants, each from both sweeps
    // Both sweeps on one scale: every measured time on the one time axis, B dashed, A solid,
    // a variant in one colour in both.
    QCPAxis* timeAxis = chart->timeRect()->axis(QCPAxis::atLeft);
    QMap<QString, QList<QCPGraph*>> byVariant;
    for (int i = 0; i < chart->graphCount(); ++i) {
        QCPGraph* graph = chart->graph(i);
        if (graph->valueAxis() != timeAxis || graph->dataCount() == 0) continue;
        // Each hovered point names its variant and its recording: "fused — A: NVIDIA H200 ...".
        byVariant[graph->name().section(QStringLiteral(" — "), 0, 0)] << graph;
        QVERIFY2(graph->name().contains(QStringLiteral(" — A: NVIDIA H200")) ||
                     graph->name().contains(QStringLiteral(" — B: Intel")),
                 qPrintable(graph->name()));
    }
    QCOMPARE(byVariant.size(), 3);
    for (const QList<QCPGraph*>& graphs : byVariant) {
        QCOMPARE(graphs.size(), 2);
        QCOMPARE(graphs[0]->pen().color(), graphs[1]->pen().color());
        QCOMPARE(graphs[0]->pen().style(), Qt::SolidLine);
        QCOMPARE(graphs[1]->pen().style(), Qt::DashLine);
        QCOMPARE(graphs[0]->dataCount(), 17);  // the H200: 4096 to 2^28
        QCOMPARE(graphs[1]->dataCount(), 11);  // the CPU: 4096 to 2^22
    }
    // Hovering the CPU's last fused point names the CPU's recording.
    chart->resize(1000, 700);
    chart->replot(QCustomPlot::rpImmediateRefresh);
    QCPGraph* cpuFused = byVariant.value(QStringLiteral("fused")).value(1);
    QVERIFY(cpuFused);
    const auto last = cpuFused->data()->constEnd() - 1;
    const QString tooltip =
        chartPointTooltip(chart, cpuFused->coordsToPixels(last->key, last->value));
    QVERIFY2(tooltip.contains(QStringLiteral("fused — B: Intel")), qPrintable(tooltip));
    QCOMPARE(chart->timeRect()->axis(QCPAxis::atBottom)->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(timeAxis->scaleType(), QCPAxis::stLogarithmic);
    // The H200 reaches about 100x the CPU's bandwidth: a log axis shows both.
    QCOMPARE(chart->bandwidthRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLogarithmic);
    const QStringList legend = legendNames(*chart);
    QVERIFY2(legend.contains(QStringLiteral("A: NVIDIA H200 (CUDA), 2026-11-30")),
             qPrintable(legend.join(QStringLiteral(" | "))));
    QVERIFY2(legend.contains(QStringLiteral("B: Intel(R) Xeon(R) Processor (CPU), 2026-12-01")),
             qPrintable(legend.join(QStringLiteral(" | "))));
    for (const char* variant : {"fused", "scratch", "two_launch"})
        QCOMPARE(legend.count(QString::fromLatin1(variant)), 1);
    // Compared sweeps draw no fit, regimes or L2 line: each device has its own.
    QVERIFY(chart->fitText().isEmpty());
    QCOMPARE(chart->shownL2N(), 0.0);
    QCOMPARE(chart->shownRegimeBoundaryN(), 0.0);

    // Runs compared after sweeps: the runs' views come back.
    QVERIFY(window.openRecording(kRuns).isEmpty());
    QVERIFY(window.compareWith(kRuns).isEmpty());
    QVERIFY(!compare->showsSweeps());
}

void CompareSweepsTest::refusesASweepAgainstRunsAndOtherPipelines() {
    {
        // Only a sweep open: a recording of runs has nothing to stand beside.
        MainWindow window(folder_->settings());
        window.show();
        QVERIFY(window.openRecording(kGpuSweep).isEmpty());
        const QString refusal = window.compareWith(kRuns);
        QVERIFY2(refusal.contains(QStringLiteral("is a recording of runs")), qPrintable(refusal));
        QVERIFY(refusal.contains(QStringLiteral("two size sweeps of the same pipeline")));
        QVERIFY(!window.compareWindow() || !window.compareWindow()->isVisible());
        // A sweep of another pipeline: the reason names both.
        const QString other = window.compareWith(kAffineSweep);
        QVERIFY2(
            other.contains(QStringLiteral("swiglu")) && other.contains(QStringLiteral("affine")),
            qPrintable(other));
        QVERIFY2(other.contains(QStringLiteral("same pipeline")), qPrintable(other));
        QVERIFY(!window.compareWindow() || !window.compareWindow()->isVisible());
    }
    {
        // Only runs open: a sweep has nothing to stand beside.
        MainWindow window(folder_->settings());
        window.show();
        QVERIFY(window.openRecording(kRuns).isEmpty());
        const QString refusal = window.compareWith(kCpuSweep);
        QVERIFY2(refusal.contains(QStringLiteral("is a size sweep")), qPrintable(refusal));
        QVERIFY(!window.compareWindow() || !window.compareWindow()->isVisible());
    }
}

void CompareSweepsTest::nothingCutOrOverlapping_data() {
    QTest::addColumn<QSize>("screen");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
}

// The compare window filling a screen of that many pixels at the process's scale factor: the
// chart's text inside the chart and apart, the labels readable, every column of the ratio table
// in sight without scrolling sideways.
void CompareSweepsTest::nothingCutOrOverlapping() {
    QFETCH(QSize, screen);
    MainWindow window(folder_->settings());
    CompareWindow* compare = openBoth(window);
    QVERIFY(compare);
    const qreal ratio = compare->devicePixelRatioF();
    compare->resize(qRound(screen.width() / ratio), qRound(screen.height() / ratio));
    QVERIFY(QTest::qWaitForWindowExposed(compare));
    QTabWidget* tabs = compare->sweepView()->tabs();
    QStringList problems;
    for (int index = 0; index < tabs->count(); ++index) {
        tabs->setCurrentIndex(index);
        QCoreApplication::processEvents();
        QTest::qWait(20);
        SweepChart* chart = compare->sweepView()->chart();
        if (chart->isVisible()) {
            QVERIFY(chart->height() >= chart->minimumHeight());
            chart->replot(QCustomPlot::rpImmediateRefresh);
            for (const QString& problem : testing::plotProblems(*chart))
                problems << QStringLiteral("[%1] %2").arg(tabs->tabText(index), problem);
            // Room for the data: axis names in full (the fitter elides them to their axis), the
            // legend in two columns or more.
            for (QCPAxisRect* rect : {chart->timeRect(), chart->bandwidthRect()})
                for (QCPAxis* axis : rect->axes())
                    if (axis->label().contains(QChar(0x2026)))
                        problems << QStringLiteral("axis name cut to '%1'").arg(axis->label());
            if (chart->legend->wrap() < 2)
                problems << QStringLiteral("the legend stands in one column");
        }
        for (const QString& problem : testing::labelProblems(*compare))
            problems << QStringLiteral("[%1] %2").arg(tabs->tabText(index), problem);
        for (QTableWidget* table :
             {compare->sweepView()->ratioTable(), compare->sweepView()->fitTable()})
            if (table->isVisible() && table->horizontalScrollBar()->maximum() > 0)
                problems << QStringLiteral("%1 scrolls sideways: %2 px of columns in %3")
                                .arg(table->objectName())
                                .arg(table->horizontalHeader()->length())
                                .arg(table->viewport()->width());
        if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
            compare->grab().save(QStringLiteral("%1/compare-sweeps-%2x%3-%4.png")
                                     .arg(shots)
                                     .arg(screen.width())
                                     .arg(screen.height())
                                     .arg(index));
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_MAIN(CompareSweepsTest)
#include "compare_sweeps_test.moc"
