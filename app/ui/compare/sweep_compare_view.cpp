#include "ui/compare/sweep_compare_view.h"

#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "model/comparison.h"
#include "model/format.h"
#include "ui/charts/chart_interaction.h"
#include "ui/charts/plot_text_fit.h"
#include "ui/compare/compare_table.h"
#include "ui/sweep/sweep_chart.h"

namespace fusescope {
namespace {

QString durationOrNone(const std::optional<double>& ms) {
    return ms ? model::formatDuration(*ms) : QStringLiteral("—");
}

QString gbpsOrNone(const std::optional<double>& gbps) {
    return gbps ? model::formatGBps(*gbps) : QStringLiteral("—");
}

}  // namespace

SweepCompareView::SweepCompareView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sweepCompare"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_ = makeCompareTable(QStringLiteral("compareSweepRatios"), this);
    chart_ = new SweepChart;
    chart_->setObjectName(QStringLiteral("compareSweepChart"));
    chart_->setProperty("fusescopeExportTitle", tr("Size sweeps compared"));
    chart_->setProperty("fusescopeFileStem", QStringLiteral("size_sweeps_compared"));
    // As every chart of the main window: text kept inside and apart, zoom, pan and hover.
    fitPlotTextAlways(chart_);
    makeChartInteractive(chart_);
    // The chart and the table each take the whole window in turn: two axis rects, a legend
    // naming both recordings and eight columns of numbers need it on a 1280x720 screen at 150%.
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    tabs_->addTab(chart_, tr("Chart of both"));
    tabs_->addTab(table_, tr("Ratios per size"));
    fits_ = makeCompareTable(QStringLiteral("compareSweepFits"), this);
    tabs_->addTab(fits_, tr("Fitted model"));
    layout->addWidget(tabs_, 1);
}

void SweepCompareView::setComparison(const model::SweepComparison& comparison) {
    fillTable(comparison);
    fillFits(comparison);
    chart_->setData(comparison.chart);
}

void SweepCompareView::fillTable(const model::SweepComparison& comparison) {
    const QStringList headers{tr("Variant"),  comparison.sizeDimension,
                              tr("Time A"),   tr("Time B"),
                              tr("Time B/A"), tr("GB/s A"),
                              tr("GB/s B"),   tr("GB/s B/A")};
    table_->clear();
    table_->setColumnCount(ColumnCount);
    table_->setHorizontalHeaderLabels(headers);
    int rows = 0;
    for (const model::SweepVariantComparison& variant : comparison.variants)
        rows += variant.sizes.size();
    table_->setRowCount(rows);
    int row = 0;
    for (const model::SweepVariantComparison& variant : comparison.variants)
        for (const model::SweepSizeComparison& size : variant.sizes) {
            // Where one sweep did not measure this size, the ratio cells say which one did.
            const QString onlyOne = size.inBoth()  ? QString()
                                    : size.timeMsA ? tr("only in A")
                                                   : tr("only in B");
            const QStringList texts{model::formatCount(static_cast<quint64>(std::llround(size.n))),
                                    durationOrNone(size.timeMsA),
                                    durationOrNone(size.timeMsB),
                                    size.inBoth() ? model::formatRatio(size.timeRatio()) : onlyOne,
                                    gbpsOrNone(size.gbpsA),
                                    gbpsOrNone(size.gbpsB),
                                    size.inBoth() ? model::formatRatio(size.gbpsRatio()) : onlyOne};
            table_->setItem(row, Variant, compareCell(variant.variant, false));
            for (int column = 0; column < texts.size(); ++column)
                table_->setItem(row, column + Size, compareCell(texts[column]));
            ++row;
        }
}

void SweepCompareView::fillFits(const model::SweepComparison& comparison) {
    const QStringList headers{tr("Variant"),     tr("Overhead A"),  tr("Overhead B"),
                              tr("Bandwidth A"), tr("Bandwidth B"), tr("Bandwidth B/A")};
    fits_->clear();
    fits_->setColumnCount(headers.size());
    fits_->setHorizontalHeaderLabels(headers);
    fits_->setRowCount(comparison.variants.size());
    // "5.86 µs per launch", "~0 (clamped)", or why there is no fit.
    const auto overhead = [](const std::optional<SweepChartFit>& fit, const QString& error) {
        if (!fit) return tr("no fit: %1").arg(error);
        if (fit->overheadClamped) return tr("~0 (fit clamped)");
        return tr("%1 µs per launch").arg(fit->overheadUs, 0, 'f', 2);
    };
    const auto bandwidth = [](const std::optional<SweepChartFit>& fit) {
        return fit ? model::formatGBps(fit->bandwidthGBps) + QStringLiteral(" GB/s")
                   : QStringLiteral("—");
    };
    for (int row = 0; row < comparison.variants.size(); ++row) {
        const model::SweepVariantComparison& variant = comparison.variants[row];
        const QStringList texts{overhead(variant.fitA, variant.fitErrorA),
                                overhead(variant.fitB, variant.fitErrorB), bandwidth(variant.fitA),
                                bandwidth(variant.fitB),
                                model::formatRatio(variant.fitBandwidthRatio())};
        fits_->setItem(row, 0, compareCell(variant.variant, false));
        for (int column = 0; column < texts.size(); ++column)
            fits_->setItem(row, column + 1, compareCell(texts[column]));
    }
}

}  // namespace fusescope
