#include "ui/compare/compare_window.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "model/captions.h"
#include "model/format.h"
#include "ui/charts/chart_interaction.h"
#include "ui/charts/log_scale.h"
#include "ui/charts/plot.h"
#include "ui/charts/plot_text_fit.h"
#include "ui/compare/compare_table.h"
#include "ui/compare/sweep_compare_view.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/stage/stage_caption.h"

namespace fusescope {
namespace {

// Bars of the two recordings: A left of each variant's tick, B right of it.
constexpr double kBarWidth = 0.38;

}  // namespace

CompareWindow::CompareWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
    setObjectName(QStringLiteral("compareWindow"));
    setWindowTitle(tr("Compare recordings — FuseScope"));
    auto* layout = new QVBoxLayout(this);
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("compareHeader"));
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(header_);
    notes_ = new QLabel(this);
    notes_->setWordWrap(true);
    notes_->setTextFormat(Qt::PlainText);  // names from the two files, never HTML
    layout->addWidget(notes_);

    table_ = makeCompareTable(QStringLiteral("compareRatios"), this);

    timeChart_ = new QCustomPlot;
    timeChart_->setObjectName(QStringLiteral("compareTimeChart"));
    bandwidthChart_ = new QCustomPlot;
    bandwidthChart_->setObjectName(QStringLiteral("compareBandwidthChart"));
    // Offered by the export menus and --export-charts like the main window's charts.
    timeChart_->setProperty("fusescopeExportTitle", tr("Time compared"));
    timeChart_->setProperty("fusescopeFileStem", QStringLiteral("time_compared"));
    bandwidthChart_->setProperty("fusescopeExportTitle", tr("Bandwidth compared"));
    bandwidthChart_->setProperty("fusescopeFileStem", QStringLiteral("bandwidth_compared"));
    for (QCustomPlot* chart : {timeChart_, bandwidthChart_}) {
        chart->setMinimumSize(240, 200);
        chart->plotLayout()->insertRow(0);
        chart->plotLayout()->addElement(0, 0, new QCPTextElement(chart, QString(), QFont()));
        // As every chart of the window: text kept inside and apart, zoom, pan and hover.
        fitPlotTextAlways(chart);
        makeChartInteractive(chart);
    }
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(timeChart_);
    charts->addWidget(bandwidthChart_);

    auto* stagePage = new QWidget;
    auto* stageLayout = new QVBoxLayout(stagePage);
    stageLayout->setContentsMargins(0, 0, 0, 0);
    auto* pickRow = new QHBoxLayout;
    pickRow->addWidget(new QLabel(tr("Variant on the stage (A left, B right, one time scale):")));
    variant_ = new QComboBox;
    variant_->setObjectName(QStringLiteral("compareVariant"));
    pickRow->addWidget(variant_);
    pickRow->addStretch(1);
    stageLayout->addLayout(pickRow);
    stage_ = new MemoryStageView;
    stage_->setObjectName(QStringLiteral("compareStage"));
    stageLayout->addWidget(stage_, 1);
    connect(variant_, &QComboBox::currentIndexChanged, this, &CompareWindow::showVariantOnStage);

    auto* tabs = new QTabWidget(this);
    tabs->setDocumentMode(true);
    tabs->addTab(charts, tr("Charts"));
    tabs->addTab(stagePage, tr("Memory stage"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(tabs);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    runsPage_ = split;
    sweepView_ = new SweepCompareView;
    pages_ = new QStackedWidget(this);
    pages_->addWidget(runsPage_);
    pages_->addWidget(sweepView_);
    layout->addWidget(pages_, 1);
    resize(1100, 760);
}

void CompareWindow::setRecordings(const model::Recording& a, const QString& nameA,
                                  const model::Recording& b, const QString& nameB) {
    a_ = a;
    b_ = b;
    comparison_ = model::compareRecordings(a, b);
    pages_->setCurrentWidget(runsPage_);
    header_->setText(tr("<b>A</b>: %1 (%2)<br><b>B</b>: %3 (%4)<br>Ratios are B / A: below 1 B "
                        "takes less time, moves fewer bytes, reaches less bandwidth.")
                         .arg(comparison_.labelA.toHtmlEscaped(), nameA.toHtmlEscaped(),
                              comparison_.labelB.toHtmlEscaped(), nameB.toHtmlEscaped()));
    QStringList notes;
    if (comparison_.variants.isEmpty())
        notes << tr(
            "The two recordings have no variant in common (same pipeline and variant "
            "name): nothing to compare.");
    if (!comparison_.onlyInA.isEmpty())
        notes << tr("Only in A: %1.").arg(comparison_.onlyInA.join(QStringLiteral(", ")));
    if (!comparison_.onlyInB.isEmpty())
        notes << tr("Only in B: %1.").arg(comparison_.onlyInB.join(QStringLiteral(", ")));
    if (!comparison_.problemsDiffer.isEmpty())
        notes << tr("Measured at different problems: %1.")
                     .arg(comparison_.problemsDiffer.join(QStringLiteral("; ")));
    showNotes(notes, nameA, nameB);

    fillTable();
    fillChart(timeChart_, tr("Time per variant"), true);
    bool dram = !comparison_.variants.isEmpty();
    QStringList sources;
    for (const model::VariantComparison& v : comparison_.variants) {
        dram = dram && v.gbpsOfDram;
        for (const QString& source : {v.dramSourceA, v.dramSourceB})
            if (!source.isEmpty() && !sources.contains(source)) sources << source;
    }
    fillChart(bandwidthChart_,
              dram ? tr("DRAM bandwidth (%1)").arg(sources.join(tr(" or ")))
                   : tr("Requested bandwidth (L1/L2 serve re-reads)"),
              false);
    {
        const QSignalBlocker quiet(variant_);
        variant_->clear();
        for (const model::VariantComparison& row : comparison_.variants)
            variant_->addItem(row.pipeline + QLatin1Char('/') + row.variant);
    }
    showVariantOnStage(variant_->currentIndex());
}

void CompareWindow::setSweeps(const model::SweepComparison& comparison, const QString& nameA,
                              const QString& nameB) {
    sweepComparison_ = comparison;
    pages_->setCurrentWidget(sweepView_);
    header_->setText(tr("<b>A</b>: %1 · %2 (%3)<br><b>B</b>: %4 · %5 (%6)")
                         .arg(comparison.labelA.toHtmlEscaped(),
                              comparison.settingsA.toHtmlEscaped(), nameA.toHtmlEscaped(),
                              comparison.labelB.toHtmlEscaped(),
                              comparison.settingsB.toHtmlEscaped(), nameB.toHtmlEscaped()));
    // A few sizes by name, more as their range (the table lists each).
    const auto sizes = [](const QVector<double>& list) {
        const auto count = [](double n) {
            return model::formatCount(static_cast<quint64>(std::llround(n)));
        };
        if (list.size() > 3)
            return tr("%1 to %2 (%3 sizes)")
                .arg(count(list.front()), count(list.back()))
                .arg(list.size());
        QStringList texts;
        for (double n : list) texts << count(n);
        return texts.join(QStringLiteral(", "));
    };
    QStringList notes{tr("Size sweeps of %1, float32. Ratios are B / A at each N both "
                         "measured: below 1 B takes less time, reaches less bandwidth.")
                          .arg(comparison.pipeline)};
    if (comparison.variants.isEmpty())
        notes << tr("The two sweeps have no variant in common: nothing to compare.");
    if (comparison.sharedSizes.isEmpty())
        notes << tr("The two sweeps share no size N: no ratio to show.");
    else
        notes << tr("Sizes both measured: N = %1.").arg(sizes(comparison.sharedSizes));
    if (!comparison.sizesOnlyInA.isEmpty())
        notes << tr("Only A measured N = %1.").arg(sizes(comparison.sizesOnlyInA));
    if (!comparison.sizesOnlyInB.isEmpty())
        notes << tr("Only B measured N = %1.").arg(sizes(comparison.sizesOnlyInB));
    if (!comparison.variantsOnlyInA.isEmpty())
        notes << tr("Variants only in A: %1.")
                     .arg(comparison.variantsOnlyInA.join(QStringLiteral(", ")));
    if (!comparison.variantsOnlyInB.isEmpty())
        notes << tr("Variants only in B: %1.")
                     .arg(comparison.variantsOnlyInB.join(QStringLiteral(", ")));
    showNotes(notes, nameA, nameB);
    sweepView_->setComparison(comparison);
}

void CompareWindow::showNotes(const QStringList& notes, const QString& nameA,
                              const QString& nameB) {
    notes_->setText(notes.join(QLatin1Char(' ')));
    notes_->setVisible(!notes.isEmpty());
    setWindowTitle(tr("%1 vs %2 — FuseScope").arg(nameA, nameB));
}

bool CompareWindow::showsSweeps() const {
    return pages_->currentWidget() == sweepView_;
}

void CompareWindow::fillTable() {
    // Bytes requested by the model; GB/s of DRAM bytes where every row has them.
    bool dram = !comparison_.variants.isEmpty();
    for (const model::VariantComparison& v : comparison_.variants) dram = dram && v.gbpsOfDram;
    const QString gbps = dram ? tr("DRAM GB/s") : tr("Requested GB/s");
    const QStringList headers{tr("Variant"),       tr("Time A"),      tr("Time B"),
                              tr("Time B/A"),      tr("Requested A"), tr("Requested B"),
                              tr("Requested B/A"), gbps + tr(" A"),   gbps + tr(" B"),
                              gbps + tr(" B/A")};
    table_->clear();
    table_->setColumnCount(headers.size());
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(comparison_.variants.size());
    for (int row = 0; row < comparison_.variants.size(); ++row) {
        const model::VariantComparison& v = comparison_.variants[row];
        const QStringList texts{
            model::formatDuration(v.timeMsA),  model::formatDuration(v.timeMsB),
            model::formatRatio(v.timeRatio()), model::formatBytes(v.bytesA),
            model::formatBytes(v.bytesB),      model::formatRatio(v.bytesRatio()),
            model::formatGBps(v.gbpsA),        model::formatGBps(v.gbpsB),
            model::formatRatio(v.gbpsRatio())};
        table_->setItem(row, 0, compareCell(v.variant, false));
        for (int column = 0; column < texts.size(); ++column)
            table_->setItem(row, column + 1, compareCell(texts[column]));
    }
}

void CompareWindow::fillChart(QCustomPlot* chart, const QString& title, bool time) {
    chart->clearPlottables();
    chart->clearItems();
    if (auto* heading = qobject_cast<QCPTextElement*>(chart->plotLayout()->element(0, 0))) {
        heading->setText(title);
        QFont bold = font();
        bold.setBold(true);
        heading->setFont(bold);
        heading->setTextColor(palette().color(QPalette::WindowText));
    }
    const QString unit = time ? tr("ms") : tr("GB/s");
    auto* barsA = new QCPBars(chart->xAxis, chart->yAxis);
    auto* barsB = new QCPBars(chart->xAxis, chart->yAxis);
    // Short names: the window's header names both in full.
    barsA->setName(tr("A"));
    barsB->setName(tr("B"));
    const QColor colorA = chart->palette().color(QPalette::Highlight);
    const QColor colorB = QColor(0xE0, 0x7A, 0x1F);
    barsA->setBrush(colorA);
    barsB->setBrush(colorB);
    barsA->setPen(QPen(colorA.darker(130)));
    barsB->setPen(QPen(colorB.darker(130)));
    barsA->setWidth(kBarWidth);
    barsB->setWidth(kBarWidth);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double largest = 0.0;
    double smallest = 0.0;
    for (int row = 0; row < comparison_.variants.size(); ++row) {
        const model::VariantComparison& v = comparison_.variants[row];
        const double valueA = time ? v.timeMsA : v.gbpsA;
        const double valueB = time ? v.timeMsB : v.gbpsB;
        const double position = row + 1.0;
        barsA->addData(position - kBarWidth / 2, valueA);
        barsB->addData(position + kBarWidth / 2, valueB);
        ticker->addTick(position, QStringLiteral("%1\nB/A %2")
                                      .arg(v.variant, model::formatRatio(time ? v.timeRatio()
                                                                              : v.gbpsRatio())));
        for (double value : {valueA, valueB})
            if (value > 0) {
                largest = std::max(largest, value);
                smallest = smallest > 0 ? std::min(smallest, value) : value;
            }
    }
    chart->xAxis->setTicker(ticker);
    chart->xAxis->setRange(0.3, comparison_.variants.size() + 0.7);
    const bool logarithmic = spreadNeedsLogScale(smallest, largest);
    chart->yAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logarithmic) {
        chart->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        // Headroom above the bars for the legend.
        chart->yAxis->setRange(smallest / 2, largest * 12);
        chart->yAxis->setLabel(tr("%1 (log scale)").arg(unit));
        barsA->setBaseValue(smallest / 4);
        barsB->setBaseValue(smallest / 4);
    } else {
        chart->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        chart->yAxis->setRange(0, largest > 0 ? largest * 1.6 : 1.0);
        chart->yAxis->setLabel(unit);
    }
    chart->legend->setVisible(true);
    chart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    chart->replot();
}

void CompareWindow::showVariantOnStage(int row) {
    if (row < 0 || row >= comparison_.variants.size()) return;
    const model::VariantComparison& v = comparison_.variants[row];
    const model::VariantResult& runA = a_.runs[v.runA];
    const model::VariantResult& runB = b_.runs[v.runB];
    StageCaptionContext caption;
    caption.deviceName = tr("A: %1 · B: %2").arg(comparison_.labelA, comparison_.labelB);
    caption.problem = model::problemLabel(runA);
    caption.dataSource = tr("two recordings compared");
    stage_->setRuns(runA, &runB, caption);
}

}  // namespace fusescope
