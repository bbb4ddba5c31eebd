#include <algorithm>

#include "model/format.h"
#include "model/run_traffic.h"
#include "ui/charts/charts.h"
#include "ui/charts/roofline_words.h"

namespace fusescope {

double rooflineTimeMs(const model::Recording& recording, quint64 bytes) {
    const double gbps = recording.roofline.gbps();
    return gbps > 0 ? bytes / (gbps * 1e6) : 0.0;
}

TimePerVariantChart::TimePerVariantChart(QWidget* parent)
    : ChartView(tr("Time per variant vs the copy roofline"), QStringLiteral("time_per_variant"),
                parent) {}

void TimePerVariantChart::rebuild() {
    const model::Recording& shown = recording();
    auto* bars = new QCPBars(xAxis, yAxis);
    bars->setName(tr("measured time (median)"));
    bars->setBrush(readColor());
    bars->setPen(QPen(readColor().darker(130)));
    constexpr double kBarWidth = 0.6;
    bars->setWidth(kBarWidth);

    // The roofline time of each run's DRAM bytes (measured, or the model's distinct bytes);
    // requested bytes, mostly re-reads the caches serve, are never held against it.
    QVector<model::RunTraffic> traffic;
    QStringList sources;
    for (const model::VariantResult& run : shown.runs) {
        traffic.push_back(model::runTraffic(run));
        const QString word = model::dramSourceWord(traffic.back().dramSource);
        if (traffic.back().hasDram() && !sources.contains(word)) sources << word;
    }
    // Only the legend entry: the roofline marks are items drawn across each bar.
    QPen rooflinePen(writeColor(), 2.5, Qt::DashLine);
    if (!sources.isEmpty()) {
        QCPGraph* rooflineLegend = addGraph();
        rooflineLegend->setName(
            tr("copy roofline, DRAM (%1)").arg(sources.join(QStringLiteral(" or "))));
        rooflineLegend->setPen(rooflinePen);
    }

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double largest = 0.0;
    double smallest = 0.0;  // the least time above zero, for a logarithmic axis
    double position = 1.0;
    QStringList notes;  // per bar, for its hover tooltip
    bool fasterThanRoofline = false;
    for (int r = 0; r < model::runCount(shown); ++r) {
        const model::VariantResult& run = shown.runs[r];
        const double roofline =
            traffic[r].hasDram() ? rooflineTimeMs(shown, quint64(traffic[r].dramBytes)) : 0.0;
        bars->addData(position, run.timeMs);
        // Passes where the pipeline counts whole-array sweeps; launches otherwise.
        ticker->addTick(
            position,
            run.passesCounted
                ? QStringLiteral("%1\n%2 passes").arg(model::toQString(run.variant)).arg(run.passes)
                : (run.kernels.size() == 1 ? QStringLiteral("%1\n%2 kernel")
                                           : QStringLiteral("%1\n%2 kernels"))
                      .arg(model::toQString(run.variant))
                      .arg(run.kernels.size()));
        largest = std::max({largest, run.timeMs, roofline});
        for (double value : {run.timeMs, roofline})
            if (value > 0) smallest = smallest > 0 ? std::min(smallest, value) : value;
        if (run.timeMs > 0 && roofline > run.timeMs) fasterThanRoofline = true;
        if (roofline > 0) {
            auto* mark = new QCPItemLine(this);
            mark->setPen(rooflinePen);
            mark->start->setCoords(position - kBarWidth * 0.65, roofline);
            mark->end->setCoords(position + kBarWidth * 0.65, roofline);
        }
        auto* label = new QCPItemText(this);
        label->setFont(font());  // a new item takes the application's font, not the chart's
        label->setColor(textColor());
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->position->setCoords(position, std::max(run.timeMs, roofline));
        // One short line: three variants side by side on a projector leave no room for more.
        // The share of the roofline is on the bar's tooltip and in the Results table.
        label->setText(model::formatDuration(run.timeMs));
        notes << (roofline > 0 && run.timeMs > 0
                      ? tr("copy roofline for the same DRAM bytes (%1, %2): %3 ms (%4 of "
                           "roofline speed)\n%5")
                            .arg(model::dramSourceWord(traffic[r].dramSource),
                                 model::formatBytes(quint64(traffic[r].dramBytes)),
                                 model::formatMilliseconds(roofline),
                                 model::formatPercent(roofline / run.timeMs),
                                 rooflineShareTooltip(roofline / run.timeMs))
                      : QString());
        label->setPadding(QMargins(0, 0, 0, 4));
        position += 1.0;
    }
    bars->setProperty("fusescopeNotes", notes);
    // Said on the chart itself where it happens: a slide shows no tooltips.
    if (fasterThanRoofline)
        setFootnote(tr("Faster than the copy roofline? · A plain copy is not the "
                       "hardware's limit · a kernel can stream better"),
                    tr("(hover a bar)"));
    xAxis->setTicker(ticker);
    xAxis->setRange(0.4, position - 0.4);
    bars->setBaseValue(setValueAxis(tr("time (ms)"), smallest, largest, 1.35));
}

}  // namespace fusescope
