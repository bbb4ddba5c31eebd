// Nothing of the previous file stays on screen: a recording of one pipeline opened after one of
// another, then a size sweep, then a tile sweep, then a recording again, and after each every
// chart's names, every table's cells, the size sweep's controls and the tile explorer show what
// is open now. The size sweep tells its variants apart by marker shape as well as by colour.

#include <QListWidget>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>
#include <set>

#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "support/shown_window.h"
#include "support/window_test_case.h"
#include "ui/charts/chart_view.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "ui/export/chart_export.h"
#include "ui/export/table_export.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

const QString kMlp =
    QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-prefill-4096-bf16.fusescope.json");
const QString kSwiglu = QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-2e26.fusescope.json");
const QString kSizeSweep =
    QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-size-sweep.fusescope.json");
const QString kTileSweep =
    QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-classroom-bf16-h200.json");

// The names a recording shows: its variants and its kernels.
std::set<QString> namesIn(const QString& path) {
    std::set<QString> names;
    const Result<model::Recording> recording = model::loadRecording(path);
    if (!recording) return names;
    for (const model::VariantResult& run : recording->runs) {
        names.insert(model::toQString(run.variant));
        for (const fusescope::KernelResult& kernel : run.kernels)
            names.insert(QString::fromStdString(kernel.name));
    }
    return names;
}

// Every text a chart draws after a replot: tick names, axis labels, text items, text elements
// and the names its legend shows.
QStringList textsOf(QCustomPlot* plot) {
    plot->replot();
    QStringList texts;
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible()) continue;
            texts << axis->label();
            if (auto names = axis->ticker().dynamicCast<QCPAxisTickerText>())
                texts << names->ticks().values();
        }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
            texts << text->text();
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(element)) texts << text->text();
    for (int i = 0; i < plot->plottableCount(); ++i) texts << plot->plottable(i)->name();
    return texts;
}

QStringList textsOf(QTableView* table) {
    QStringList texts;
    const QAbstractItemModel* model = table->model();
    for (int row = 0; row < model->rowCount(); ++row)
        for (int column = 0; column < model->columnCount(); ++column)
            texts << model->data(model->index(row, column)).toString();
    return texts;
}

// The names of `stale` that a text shows whole, or as one of its words.
QStringList staleNames(const QStringList& texts, const std::set<QString>& stale) {
    QStringList found;
    for (const QString& text : texts) {
        QStringList words =
            text.split(QRegularExpression(QStringLiteral("[\\s,·()]+")), Qt::SkipEmptyParts);
        words << text.trimmed();
        for (const QString& word : words)
            if (stale.count(word) && !found.contains(word)) found << word;
    }
    return found;
}

// Every chart and table of the main window (Compare aside), by name, with the stale names it
// shows.
QStringList staleInWindow(MainWindow& window, const std::set<QString>& stale) {
    QTest::qWait(200);  // the charts' queued rebuilds and coalesced replots, as a person looks
    QStringList problems;
    for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
        const QStringList found = staleNames(textsOf(plot), stale);
        if (!found.isEmpty())
            problems << QStringLiteral("chart %1: %2").arg(plot->objectName(), found.join(", "));
    }
    for (QTableView* table : window.findChildren<QTableView*>()) {
        if (table->property(kNotARecordingView).toBool()) continue;  // the lab's declarations
        const QStringList found = staleNames(textsOf(table), stale);
        if (!found.isEmpty())
            problems << QStringLiteral("table %1: %2").arg(table->objectName(), found.join(", "));
    }
    return problems;
}

// Pictures for the notes, where FUSESCOPE_LAYOUT_SHOTS names a folder.
void saveShot(QWidget* widget, const QString& name) {
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
        widget->grab().save(QStringLiteral("%1/%2.png").arg(shots, name));
}

std::set<QString> minus(const std::set<QString>& all, const std::set<QString>& kept) {
    std::set<QString> left;
    for (const QString& name : all)
        if (!kept.count(name)) left.insert(name);
    return left;
}

QStringList listedVariants(SweepTab* tab, bool tickedOnly) {
    QStringList names;
    for (int row = 0; row < tab->variantList()->count(); ++row) {
        const QListWidgetItem* item = tab->variantList()->item(row);
        if (!tickedOnly || item->checkState() == Qt::Checked)
            names << item->data(Qt::UserRole).toString();
    }
    names.sort();
    return names;
}

}  // namespace

class StaleViewsTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void everyViewShowsWhatIsOpen();
    void sweepVariantsDifferByMoreThanColour();
};

void StaleViewsTest::everyViewShowsWhatIsOpen() {
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    const std::set<QString> mlp = namesIn(kMlp);
    const std::set<QString> swiglu = namesIn(kSwiglu);
    QVERIFY(mlp.count(QStringLiteral("gemm_gate")));
    const std::set<QString> onlyMlp = minus(mlp, swiglu);
    const std::set<QString> onlySwiglu = minus(swiglu, mlp);
    QVERIFY(onlyMlp.size() >= 3 && onlySwiglu.size() >= 2);

    // The run charts show each recording's names, then the next one's and never the last one's.
    QCOMPARE(window.openRecording(kMlp), QString());
    QStringList problems = staleInWindow(window, onlySwiglu);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QVERIFY(!staleNames(textsOf(window.charts().front()), {QStringLiteral("gemm_gate")}).isEmpty());
    QCOMPARE(window.openRecording(kSwiglu), QString());
    problems = staleInWindow(window, onlyMlp);
    saveShot(&window, QStringLiteral("mlp-then-swiglu-1280x720"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QVERIFY(!staleNames(textsOf(window.charts().front()), onlySwiglu).isEmpty());
    // The size sweep's controls list the open pipeline's variants.
    SweepTab* sweep = window.findChild<SweepTab*>(QStringLiteral("sweepTab"));
    QVERIFY(sweep);
    const model::Recording swigluRecording = model::loadRecording(kSwiglu).value();
    QStringList swigluVariants;
    for (const model::VariantResult& run : swigluRecording.runs)
        swigluVariants << model::toQString(run.variant);
    for (const QString& listed : listedVariants(sweep, false))
        QVERIFY2(swigluVariants.contains(listed), qPrintable(listed));

    // A size sweep: its pipeline and swept variants in the controls, no recording left in the
    // run views.
    QCOMPARE(window.openRecording(kSizeSweep), QString());
    const model::SweepFile sweepFile = model::loadSweepFile(kSizeSweep).value();
    QStringList swept;
    for (const SweepSeries& series : sweepFile.report.series)
        swept << QString::fromStdString(series.variant);
    swept.sort();
    QCOMPARE(listedVariants(sweep, true), swept);
    QVERIFY(window.recording().runs.empty());
    problems = staleInWindow(window, minus(swiglu, {swept.cbegin(), swept.cend()}));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QVERIFY(plotShowsData(*sweep->chart()));

    // A tile sweep: the heatmap fills; the size sweep goes.
    QCOMPARE(window.openRecording(kTileSweep), QString());
    TileExplorerTab* tiles = window.tileExplorer();
    QVERIFY(plotShowsData(*tiles->heatmap()));
    QVERIFY(!plotShowsData(*sweep->chart()));
    QCOMPARE(sweep->pointsTable()->rowCount(), 0);
    QVERIFY(!sweep->hasSweep());
    QVERIFY(window.recording().runs.empty());
    problems = staleInWindow(window, swiglu);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));

    // A recording again: the tile sweep's heatmap goes.
    QCOMPARE(window.openRecording(kSwiglu), QString());
    QVERIFY(!plotShowsData(*tiles->heatmap()));
    QVERIFY(!plotShowsData(*tiles->roofline()));
    QVERIFY(!tiles->hasSweep());
    problems = staleInWindow(window, onlyMlp);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QVERIFY(!staleNames(textsOf(window.charts().front()), onlySwiglu).isEmpty());
}

// Each variant of a sweep has a marker of its own, in one sweep and in two compared (where the
// recordings differ by line style and by filled or hollow markers).
void StaleViewsTest::sweepVariantsDifferByMoreThanColour() {
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    QCOMPARE(window.openRecording(kSizeSweep), QString());
    SweepChart* chart = window.findChild<SweepTab*>(QStringLiteral("sweepTab"))->chart();
    QTest::qWait(50);
    saveShot(&window, QStringLiteral("size-sweep-markers-1280x720"));
    const auto shapesOf = [](SweepChart* shown) {
        std::map<QString, std::set<int>> shapes;  // by variant: the shapes its measured points have
        for (int i = 0; i < shown->graphCount(); ++i) {
            QCPGraph* graph = shown->graph(i);
            if (graph->keyAxis()->axisRect() != shown->timeRect() || graph->dataCount() == 0 ||
                graph->scatterStyle().isNone())
                continue;
            shapes[graph->name().section(QStringLiteral(" — "), 0, 0)].insert(
                int(graph->scatterStyle().shape()));
        }
        return shapes;
    };
    const std::map<QString, std::set<int>> one = shapesOf(chart);
    QCOMPARE(one.size(), std::size_t(3));
    std::set<int> used;
    for (const auto& [variant, shapes] : one) {
        QCOMPARE(shapes.size(), std::size_t(1));
        QVERIFY2(used.insert(*shapes.begin()).second, qPrintable(variant));
    }

    QCOMPARE(window.compareWith(kSizeSweep), QString());
    auto* compared = window.findChild<SweepChart*>(QStringLiteral("compareSweepChart"));
    QVERIFY(compared);
    const std::map<QString, std::set<int>> two = shapesOf(compared);
    QCOMPARE(two.size(), std::size_t(3));
    used.clear();
    for (const auto& [variant, shapes] : two) {
        QCOMPARE(shapes.size(), std::size_t(1));  // one shape in both recordings
        QVERIFY2(used.insert(*shapes.begin()).second, qPrintable(variant));
    }
    // The two recordings of one variant: solid and filled, dashed and hollow.
    std::set<std::pair<int, bool>> looks;
    for (int i = 0; i < compared->graphCount(); ++i) {
        QCPGraph* graph = compared->graph(i);
        if (graph->keyAxis()->axisRect() != compared->timeRect() || graph->dataCount() == 0)
            continue;
        looks.insert(
            {int(graph->pen().style()), graph->scatterStyle().brush().style() != Qt::NoBrush});
    }
    QCOMPARE(looks.size(), std::size_t(2));
}

QTEST_MAIN(StaleViewsTest)
#include "stale_views_test.moc"
