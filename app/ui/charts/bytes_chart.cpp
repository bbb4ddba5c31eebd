#include <algorithm>

#include "model/format.h"
#include "model/run_traffic.h"
#include "ui/charts/charts.h"

namespace fusescope {

BytesPerKernelChart::BytesPerKernelChart(QWidget* parent)
    : ChartView(tr("Requested and DRAM bytes per kernel"), QStringLiteral("bytes_per_kernel"),
                parent) {}

void BytesPerKernelChart::rebuild() {
    const model::Recording& shown = recording();
    double largest = 0.0;
    for (const model::VariantResult& run : shown.runs)
        for (const KernelResult& kernel : run.kernels)
            largest = std::max<double>(largest, kernel.modelBytesRead + kernel.modelBytesWritten);
    const ByteUnit unit = byteUnitFor(largest);

    auto* read = new QCPBars(xAxis, yAxis);
    auto* written = new QCPBars(xAxis, yAxis);
    // Bars: what the kernels request, every re-read counted; diamonds: what reached DRAM.
    read->setName(tr("requested read (model)"));
    written->setName(tr("requested written (model)"));
    read->setBrush(readColor());
    read->setPen(QPen(readColor().darker(130)));
    written->setBrush(writeColor());
    written->setPen(QPen(writeColor().darker(130)));
    written->moveAbove(read);
    read->setWidth(0.7);
    written->setWidth(0.7);

    QCPGraph* measured = nullptr;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double position = 1.0;
    QVector<QPair<double, QString>> groups;  // centre and name of each variant's bars
    // The least bar above zero, for a logarithmic axis (zero bars have no place on one).
    double smallest = 0.0;
    const auto noteSmallest = [&smallest](double value) {
        if (value > 0) smallest = smallest > 0 ? std::min(smallest, value) : value;
    };
    QStringList dramSources;
    for (const model::VariantResult& run : shown.runs) {
        const double groupStart = position;
        const model::RunTraffic traffic = model::runTraffic(run);
        for (std::size_t k = 0; k < run.kernels.size(); ++k) {
            const KernelResult& kernel = run.kernels[k];
            if (kernel.modelBytesRead > 0)
                read->addData(position, kernel.modelBytesRead / unit.divisor);
            if (kernel.modelBytesWritten > 0)
                written->addData(position, kernel.modelBytesWritten / unit.divisor);
            noteSmallest(static_cast<double>(kernel.modelBytesRead + kernel.modelBytesWritten));
            ticker->addTick(position, QString::fromStdString(kernel.name));
            if (k < std::size_t(traffic.kernels.size())) {
                const model::KernelDram& dram = traffic.kernels[qsizetype(k)];
                if (!measured) {
                    measured = addGraph();
                    measured->setLineStyle(QCPGraph::lsNone);
                    measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond,
                                                              textColor(), accentColor(), 10));
                }
                const QString word = model::dramSourceWord(dram.source);
                if (!dramSources.contains(word)) dramSources << word;
                measured->addData(position, dram.total() / unit.divisor);
                largest = std::max(largest, dram.total());
                noteSmallest(dram.total());
            }
            position += 1.0;
        }
        if (!run.kernels.empty())
            groups.push_back({(groupStart + position - 1.0) / 2, model::toQString(run.variant)});
        position += 0.6;  // a gap between variants
    }
    // Variant names over their groups of bars.
    QFont groupFont = font();
    groupFont.setBold(true);
    for (const auto& [centre, name] : groups) {
        auto* label = new QCPItemText(this);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(centre, 0.0);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
        label->setPadding(QMargins(0, 4, 0, 0));
        label->setFont(groupFont);
        label->setColor(textColor());
        label->setText(name);
    }
    if (measured)
        measured->setName(
            tr("DRAM, read + written (%1)").arg(dramSources.join(QStringLiteral(" or "))));
    xAxis->setTicker(ticker);
    xAxis->setRange(0.3, position - 0.9);
    const double base = setValueAxis(tr("bytes (%1)").arg(unit.name), smallest / unit.divisor,
                                     largest / unit.divisor, 1.2);
    read->setBaseValue(base);
}

}  // namespace fusescope
