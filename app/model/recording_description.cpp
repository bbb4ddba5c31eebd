#include "model/recording_description.h"

#include <QDateTime>
#include <QStringList>
#include <algorithm>
#include <bit>

#include "model/captions.h"
#include "model/format.h"
#include "model/tile_peer_comparison.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

QString pipelineTitle(const QString& name) {
    if (const PipelineSpec* pipeline = findPipeline(name.toStdString()))
        return QString::fromStdString(pipeline->title);
    return name;
}

QString onDevice(const QString& what, const QString& device) {
    return device.isEmpty() ? what : QStringLiteral("%1 on %2").arg(what, device);
}

// The named problem ("Llama-3-8B decode, 1 token"), else its dimensions, and the data type where
// the pipeline has several: six MLP recordings on one list are told apart by their titles.
QString problemTitle(const std::string& pipelineName, const Problem& problem) {
    const PipelineSpec* pipeline = findPipeline(pipelineName);
    if (!pipeline) return {};
    QStringList parts;
    for (const PresetSpec& preset : pipeline->presets) {
        const bool matches =
            preset.dimensions.size() == problem.dimensions.size() &&
            std::all_of(preset.dimensions.begin(), preset.dimensions.end(), [&](const auto& d) {
                const auto found = problem.dimensions.find(d.first);
                return found != problem.dimensions.end() && found->second == d.second;
            });
        if (matches) {
            parts << QString::fromStdString(preset.title);
            break;
        }
    }
    // No named shape: the dimensions, a power of two as one ("N = 2^26").
    if (parts.isEmpty()) {
        QStringList dimensions;
        for (const auto& [name, value] : problem.dimensions) {
            const bool powerOfTwo = value >= 1024 && (value & (value - 1)) == 0;
            dimensions << QStringLiteral("%1 = %2").arg(
                QString::fromStdString(name),
                powerOfTwo ? QStringLiteral("2^%1").arg(std::countr_zero(value))
                           : formatCount(value));
        }
        parts << dimensions.join(QStringLiteral(", "));
    }
    if (pipeline->dtypes.size() > 1) parts << QString::fromUtf8(dtypeTitle(problem.dtype));
    return parts.join(QStringLiteral(", "));
}

// The problem every run of a recording ran, where they all ran one.
QString recordingProblemTitle(const Recording& recording) {
    const VariantResult& first = recording.runs.front();
    const auto sameProblem = [&](const VariantResult& run) {
        return run.pipeline == first.pipeline &&
               run.problem.dimensions == first.problem.dimensions &&
               run.problem.dtype == first.problem.dtype;
    };
    if (!std::all_of(recording.runs.begin(), recording.runs.end(), sameProblem)) return {};
    return problemTitle(first.pipeline, first.problem);
}

}  // namespace

QString recordingTitle(const Recording& recording) {
    QStringList pipelines;
    for (const VariantResult& run : recording.runs)
        if (!pipelines.contains(toQString(run.pipeline))) pipelines << toQString(run.pipeline);
    QStringList titles;
    for (const QString& name : pipelines) titles << pipelineTitle(name);
    QString what =
        titles.isEmpty() ? QStringLiteral("Empty recording") : titles.join(QStringLiteral(", "));
    if (const QString problem = titles.size() == 1 ? recordingProblemTitle(recording) : QString();
        !problem.isEmpty())
        what += QStringLiteral(" (%1)").arg(problem);
    return onDevice(what, QString::fromStdString(recording.device.name));
}

QString recordingDescription(const Recording& recording) {
    if (!recording.description.isEmpty()) return recording.description.simplified();
    if (recording.runs.empty()) return QStringLiteral("no runs");
    QStringList variants;
    for (const VariantResult& run : recording.runs) variants << toQString(run.variant);
    QString text =
        QStringLiteral("%1: %2").arg(variants.join(QStringLiteral(", ")), problemLabel(recording));
    // What it shows: how far apart the fastest and the slowest variant are.
    const auto timed = [](const VariantResult& run) { return run.timeMs > 0; };
    if (std::count_if(recording.runs.begin(), recording.runs.end(), timed) >= 2) {
        const auto byTime = [](const VariantResult& a, const VariantResult& b) {
            if ((a.timeMs > 0) != (b.timeMs > 0)) return a.timeMs > 0;
            return a.timeMs < b.timeMs;
        };
        const VariantResult& fastest =
            *std::min_element(recording.runs.begin(), recording.runs.end(), byTime);
        const VariantResult* slowest = &fastest;
        for (const VariantResult& run : recording.runs)
            if (run.timeMs > slowest->timeMs) slowest = &run;
        text += QStringLiteral("; %1 %2 faster than %3 (%4 against %5)")
                    .arg(toQString(fastest.variant), formatTimes(slowest->timeMs / fastest.timeMs),
                         toQString(slowest->variant), formatDuration(fastest.timeMs),
                         formatDuration(slowest->timeMs));
    }
    const bool sampled = std::any_of(recording.runs.begin(), recording.runs.end(),
                                     [](const VariantResult& run) { return !run.samples.empty(); });
    const bool counted =
        std::any_of(recording.runs.begin(), recording.runs.end(),
                    [](const VariantResult& run) { return run.countersSource.has_value(); });
    if (counted && sampled)
        text += QStringLiteral("; with counters and bandwidth over time");
    else if (counted)
        text += QStringLiteral("; with counters");
    else if (sampled)
        text += QStringLiteral("; with bandwidth over time");
    return text;
}

QString sweepTitle(const SweepFile& sweep) {
    return onDevice(QStringLiteral("Size sweep of %1")
                        .arg(pipelineTitle(QString::fromStdString(sweep.report.pipeline))),
                    QString::fromStdString(sweep.report.device.name));
}

QString sweepDescription(const SweepFile& sweep) {
    if (!sweep.description.isEmpty()) return sweep.description.simplified();
    QStringList variants;
    for (const SweepSeries& series : sweep.report.series)
        variants << QString::fromStdString(series.variant);
    const std::vector<std::uint64_t>& sizes = sweep.report.sizes;
    QString text = variants.join(QStringLiteral(", "));
    if (!sizes.empty())
        text += QStringLiteral(" over N = %1 to %2 (%3 sizes)")
                    .arg(formatCount(*std::min_element(sizes.begin(), sizes.end())),
                         formatCount(*std::max_element(sizes.begin(), sizes.end())))
                    .arg(sizes.size());
    return text + QStringLiteral(": time per launch and bandwidth, fitted");
}

QString tileSweepDevice(const tiles::TileSweep& sweep) {
    return QString::fromStdString(sweep.deviceName.empty() ? sweep.limits.name : sweep.deviceName);
}

QString tileSweepTitle(const tiles::TileSweep& sweep) {
    const tiles::TileConfiguration& base = sweep.request.base;
    QStringList what{QString::fromStdString(base.variant)};
    if (const QString problem = problemTitle(base.pipeline, base.problem); !problem.isEmpty())
        what << problem;
    return onDevice(QStringLiteral("Tile sweep of %1 (%2)")
                        .arg(pipelineTitle(QString::fromStdString(base.pipeline)),
                             what.join(QStringLiteral(", "))),
                    tileSweepDevice(sweep));
}

QString tileSweepDescription(const tiles::TileSweep& sweep) {
    const tiles::TileConfiguration& base = sweep.request.base;
    // The dimensions and dtype; the tiles are what the sweep varies.
    QStringList dimensions;
    for (const auto& [name, value] : base.problem.dimensions)
        dimensions << QStringLiteral("%1 = %2").arg(QString::fromStdString(name),
                                                    formatCount(value));
    if (const PipelineSpec* pipeline = findPipeline(base.pipeline)) {
        dimensions.clear();
        for (const DimensionSpec& dimension : pipeline->dimensions)
            if (const auto value = base.problem.dimensions.find(dimension.name);
                value != base.problem.dimensions.end())
                dimensions << QStringLiteral("%1 = %2").arg(QString::fromStdString(dimension.name),
                                                            formatCount(value->second));
    }
    const QString problem = dimensions.join(QStringLiteral(", ")) + QStringLiteral(" · ") +
                            QString::fromUtf8(dtypeTitle(base.problem.dtype));
    QStringList axes;
    for (const tiles::TileAxis& axis : sweep.request.axes)
        axes << QString::fromStdString(axis.tuning);
    int refused = 0;
    const tiles::TileCell* best = nullptr;
    for (const tiles::TileCell& cell : sweep.cells) {
        if (cell.report.refusal) ++refused;
        if (cell.best) best = &cell;
    }
    QString text = QStringLiteral("%1 tilings of %2")
                       .arg(sweep.cells.size())
                       .arg(axes.join(QStringLiteral(", ")));
    text = problem + QStringLiteral(": ") + text;
    if (refused > 0) text += QStringLiteral(" (%1 refused)").arg(refused);
    if (best) {
        QStringList tiles;
        for (const tiles::TileAxis& axis : sweep.request.axes) {
            const auto value = best->report.configuration.problem.tuning.find(axis.tuning);
            if (value != best->report.configuration.problem.tuning.end())
                tiles << QStringLiteral("%1 %2")
                             .arg(QString::fromStdString(axis.tuning))
                             .arg(value->second);
        }
        text += QStringLiteral("; best %1 at %2")
                    .arg(formatDuration(best->time.medianMs), tiles.join(QStringLiteral(", ")));
    }
    if (const std::optional<TilePeerComparison> peer = comparePeer(sweep))
        text += QStringLiteral("; %1 at the same tiles: %2 of %3 within %4x its time")
                    .arg(QString::fromStdString(sweep.peer->name))
                    .arg(peer->withinRatio)
                    .arg(peer->bothRan)
                    .arg(kPeerParRatio, 0, 'f', 2);
    return text;
}

QString deviceAndDay(const QString& deviceName, const QString& createdAt) {
    const QString device = deviceName.isEmpty() ? QStringLiteral("an unknown device") : deviceName;
    const QDateTime when = QDateTime::fromString(createdAt, Qt::ISODate);
    if (!when.isValid()) return device;
    return QStringLiteral("%1, %2").arg(device, when.date().toString(Qt::ISODate));
}

QString replayLabel(const Recording& recording) {
    return QStringLiteral("replay of a run on %1")
        .arg(deviceAndDay(QString::fromStdString(recording.device.name), recording.createdAt));
}

}  // namespace fusescope::model
