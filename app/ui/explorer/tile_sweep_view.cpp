#include "ui/explorer/tile_sweep_view.h"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/format.h"
#include "model/pipeline_catalog.h"
#include "model/tile_peer_comparison.h"

namespace fusescope {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

int tuningOf(const tiles::TileConfiguration& configuration, const std::string& tuning) {
    return configuration.problem.tuningValue(tuning);
}

// Whether the configuration has the `wanted` values for every tuning but the two shown.
bool matchesOthers(const tiles::TileConfiguration& configuration,
                   const std::map<std::string, int>& wanted, const std::string& skipA,
                   const std::string& skipB) {
    for (const auto& [name, value] : configuration.problem.tuning) {
        if (name == skipA || name == skipB) continue;
        const auto it = wanted.find(name);
        if (it != wanted.end() && it->second != value) return false;
    }
    return true;
}

// The wanted values of the other tunings: the caller's, else the sweep's base configuration's.
std::map<std::string, int> othersWanted(const tiles::TileSweep& sweep,
                                        const std::map<std::string, int>& given) {
    std::map<std::string, int> wanted;
    for (const auto& [name, value] : sweep.request.base.problem.tuning) wanted[name] = value;
    for (const auto& [name, value] : given) wanted[name] = value;
    return wanted;
}

int indexOf(const std::vector<int>& values, int value) {
    const auto it = std::find(values.begin(), values.end(), value);
    return it == values.end() ? -1 : static_cast<int>(it - values.begin());
}

QString tilesLine(const tiles::TileConfiguration& configuration) {
    QStringList parts;
    for (const TuningSpec* tuning : model::variantTunings(configuration))
        parts << QStringLiteral("%1 %2")
                     .arg(qs(tuning->title))
                     .arg(configuration.problem.tuningValue(tuning->name));
    return parts.join(QStringLiteral(" · "));
}

// "M = 512 · H = 1,024 · I = 2,816 · bfloat16": the shape without the tiles.
QString shapeLine(const tiles::TileConfiguration& configuration) {
    QStringList parts;
    if (const PipelineSpec* pipeline = findPipeline(configuration.pipeline))
        for (const DimensionSpec& dimension : pipeline->dimensions)
            parts << QStringLiteral("%1 = %2").arg(
                qs(dimension.name),
                model::formatCount(configuration.problem.dimension(dimension.name)));
    parts << qs(std::string(dtypeTitle(configuration.problem.dtype)));
    return parts.join(QStringLiteral(" · "));
}

QString timeText(const tiles::TimingSpread& time) {
    return QObject::tr("%1 ms (interquartile %2–%3 over %4 repeats)")
        .arg(model::formatMilliseconds(time.medianMs), model::formatMilliseconds(time.q1Ms),
             model::formatMilliseconds(time.q3Ms))
        .arg(time.repeats);
}

// Faster than the 5-kernel path beyond the noise: the intervals do not overlap.
bool clearlyFaster(const tiles::TileCell& cell, const tiles::ReferenceTiming* baseline) {
    return baseline && cell.measured && baseline->time.medianMs > 0 &&
           cell.time.medianMs < baseline->time.medianMs &&
           !tiles::overlaps(cell.time, baseline->time);
}

std::optional<double> referenceValue(const tiles::ReferenceTiming* reference,
                                     const tiles::ReferenceTiming* baseline, TileMetric metric) {
    if (!reference || reference->time.medianMs <= 0) return std::nullopt;
    const double ms = reference->time.medianMs;
    switch (metric) {
        case TileMetric::Time:
            return ms;
        case TileMetric::SpeedupOverBaseline:
            if (!baseline || baseline->time.medianMs <= 0) return std::nullopt;
            return baseline->time.medianMs / ms;
        case TileMetric::GBps:
            return static_cast<double>(reference->modelBytes) / (ms * 1e6);
        case TileMetric::Tflops:
            return reference->modelFlops / (ms * 1e9);
        default:
            return std::nullopt;
    }
}

}  // namespace

QString tileMetricTitle(TileMetric metric) {
    switch (metric) {
        case TileMetric::Time:
            return QObject::tr("time (ms, median)");
        case TileMetric::SpeedupOverBaseline:
            return QObject::tr("speedup over the baseline (×)");
        case TileMetric::AgainstPeer:
            return QObject::tr("time ÷ the peer's (×)");
        case TileMetric::GBps:
            return QObject::tr("GB/s (model bytes / time)");
        case TileMetric::Tflops:
            return QObject::tr("TFLOP/s");
        case TileMetric::DramBytes:
            return QObject::tr("DRAM bytes (MB, counters)");
        case TileMetric::Registers:
            return QObject::tr("registers per thread");
        case TileMetric::Spills:
            return QObject::tr("spills (local bytes per thread)");
        case TileMetric::Occupancy:
            return QObject::tr("theoretical occupancy (%)");
    }
    return {};
}

bool tileMetricHigherIsBetter(TileMetric metric) {
    return metric == TileMetric::SpeedupOverBaseline || metric == TileMetric::GBps ||
           metric == TileMetric::Tflops || metric == TileMetric::Occupancy;
}

std::optional<double> tileMetricValue(const tiles::TileCell& cell, TileMetric metric,
                                      const tiles::TileSweep& sweep) {
    const tiles::CompiledResources& compiled = cell.report.compiled;
    switch (metric) {
        case TileMetric::Registers:
            if (!compiled.known) return std::nullopt;
            return compiled.registersPerThread;
        case TileMetric::Spills:
            if (!compiled.known) return std::nullopt;
            return compiled.localBytesPerThread;
        case TileMetric::Occupancy:
            if (!compiled.known) return std::nullopt;
            return compiled.theoreticalOccupancy * 100.0;
        default:
            break;
    }
    if (!cell.measured || cell.time.medianMs <= 0) return std::nullopt;
    switch (metric) {
        case TileMetric::Time:
            return cell.time.medianMs;
        case TileMetric::SpeedupOverBaseline: {
            const tiles::ReferenceTiming* baseline = baselineReference(sweep);
            if (!baseline || baseline->time.medianMs <= 0) return std::nullopt;
            return baseline->time.medianMs / cell.time.medianMs;
        }
        case TileMetric::AgainstPeer:
            return model::peerRatio(cell);
        case TileMetric::GBps:
            return cell.gbps;
        case TileMetric::Tflops:
            return cell.tflops;
        case TileMetric::DramBytes:
            if (!cell.dramBytes) return std::nullopt;
            return *cell.dramBytes / 1e6;
        default:
            return std::nullopt;
    }
}

QString tuningTitle(const std::string& pipeline, const std::string& tuning) {
    if (const PipelineSpec* spec = findPipeline(pipeline))
        if (const TuningSpec* found = spec->findTuning(tuning)) return qs(found->title);
    return qs(tuning);
}

std::vector<int> sweptValues(const tiles::TileSweep& sweep, const std::string& tuning) {
    for (const tiles::TileAxis& axis : sweep.request.axes)
        if (axis.tuning == tuning) return axis.values;
    const int base = sweep.request.base.problem.tuningValue(tuning);
    return base > 0 ? std::vector<int>{base} : std::vector<int>{};
}

namespace {

// The sweep's timing of the named variant; nullptr where it has none.
const tiles::ReferenceTiming* referenceNamed(const tiles::TileSweep& sweep,
                                             const std::string& variant) {
    for (const tiles::ReferenceTiming& reference : sweep.references)
        if (!variant.empty() && reference.variant == variant) return &reference;
    return nullptr;
}

const VariantSpec* sweptVariant(const tiles::TileSweep& sweep) {
    const PipelineSpec* pipeline = findPipeline(sweep.request.base.pipeline);
    return pipeline ? findVariant(*pipeline, sweep.request.base.variant) : nullptr;
}

}  // namespace

const tiles::ReferenceTiming* baselineReference(const tiles::TileSweep& sweep) {
    const VariantSpec* variant = sweptVariant(sweep);
    return variant ? referenceNamed(sweep, variant->baseline) : nullptr;
}

const tiles::ReferenceTiming* leanestReference(const tiles::TileSweep& sweep) {
    const PipelineSpec* pipeline = findPipeline(sweep.request.base.pipeline);
    return pipeline ? referenceNamed(sweep, pipeline->leanestVariant) : nullptr;
}

QString baselineTitle(const tiles::TileSweep& sweep) {
    const PipelineSpec* pipeline = findPipeline(sweep.request.base.pipeline);
    const VariantSpec* variant = sweptVariant(sweep);
    const VariantSpec* baseline = pipeline && variant ? baselineOf(*pipeline, *variant) : nullptr;
    if (!baseline) return {};
    const auto kernels = baseline->kernelsFor(sweep.request.base.problem).size();
    return (kernels == 1 ? QObject::tr("%1 kernel") : QObject::tr("%1 kernels")).arg(kernels);
}

QString leanestTitle(const tiles::TileSweep& sweep) {
    const PipelineSpec* pipeline = findPipeline(sweep.request.base.pipeline);
    return pipeline ? qs(pipeline->leanestVariant) : QString();
}

TileHeatmapData heatmapData(const tiles::TileSweep& sweep, const TileHeatmapChoice& choice,
                            const QString& dataSource) {
    TileHeatmapData data;
    const std::string& pipeline = sweep.request.base.pipeline;
    data.title = QObject::tr("Tile sweep: %1").arg(tileMetricTitle(choice.metric));
    data.dataSource = dataSource;
    data.metricTitle = tileMetricTitle(choice.metric);
    data.higherIsBetter = tileMetricHigherIsBetter(choice.metric);
    data.logScaleWhenWide = choice.metric == TileMetric::Time;
    data.xTitle = tuningTitle(pipeline, choice.xTuning);
    data.yTitle = tuningTitle(pipeline, choice.yTuning);
    const std::vector<int> xs = sweptValues(sweep, choice.xTuning);
    const std::vector<int> ys = sweptValues(sweep, choice.yTuning);
    if (sweep.cells.empty() || xs.empty() || ys.empty()) {
        data.emptyMessage = QObject::tr("No configuration measured yet.");
        return data;
    }
    data.xValues = QVector<int>(xs.begin(), xs.end());
    data.yValues = QVector<int>(ys.begin(), ys.end());
    const std::map<std::string, int> wanted = othersWanted(sweep, choice.fixed);

    // The others: named, fixed at their values, or best-of.
    QStringList others;
    if (const PipelineSpec* spec = findPipeline(pipeline))
        for (const TuningSpec& tuning : spec->tunings) {
            if (tuning.name == choice.xTuning || tuning.name == choice.yTuning ||
                !tuning.appliesTo(sweep.request.base.variant))
                continue;
            const std::vector<int> values = sweptValues(sweep, tuning.name);
            if (choice.bestOfOthers && values.size() > 1)
                others << QObject::tr("%1 best of %2").arg(qs(tuning.title)).arg(values.size());
            else
                others << QStringLiteral("%1 %2")
                              .arg(qs(tuning.title))
                              .arg(wanted.count(tuning.name) ? wanted.at(tuning.name) : 0);
        }
    QStringList caption;
    caption << qs(sweep.deviceName.empty() ? sweep.limits.name : sweep.deviceName)
            << shapeLine(sweep.request.base);
    if (!others.isEmpty()) caption << others.join(QStringLiteral(", "));
    data.caption = caption.join(QStringLiteral(" · "));
    if (choice.metric == TileMetric::AgainstPeer) {
        if (!sweep.peer) {
            data.emptyMessage = QObject::tr(
                "This sweep has no peer times. benchmarks/tiles_triton.py --annotate "
                "adds the lesson's Triton kernel's, timed at the same tiles.");
            return data;
        }
        data.summary = model::peerSummary(sweep);
    }

    const tiles::ReferenceTiming* baseline = baselineReference(sweep);
    data.baselineValue = referenceValue(baseline, baseline, choice.metric);
    data.leanestValue = referenceValue(leanestReference(sweep), baseline, choice.metric);
    data.baselineTitle = baselineTitle(sweep);
    data.leanestTitle = leanestTitle(sweep);
    if (choice.metric == TileMetric::AgainstPeer) {
        // The peer's own time (1x) marked on the colour scale.
        data.baselineValue = 1.0;
        data.baselineTitle = QObject::tr("%1's time").arg(qs(sweep.peer->name));
    }

    // Per shown cell: the sweep's configuration it shows.
    std::map<std::pair<int, int>, int> shown;
    for (int index = 0; index < static_cast<int>(sweep.cells.size()); ++index) {
        const tiles::TileCell& cell = sweep.cells[static_cast<std::size_t>(index)];
        const tiles::TileConfiguration& configuration = cell.report.configuration;
        const int column = indexOf(xs, tuningOf(configuration, choice.xTuning));
        const int row = indexOf(ys, tuningOf(configuration, choice.yTuning));
        if (column < 0 || row < 0) continue;
        if (!choice.bestOfOthers &&
            !matchesOthers(configuration, wanted, choice.xTuning, choice.yTuning))
            continue;
        const auto key = std::make_pair(column, row);
        const auto it = shown.find(key);
        if (it == shown.end()) {
            shown[key] = index;
            continue;
        }
        // Best-of: the fastest measured configuration; a measured one beats a refused one.
        const tiles::TileCell& held = sweep.cells[static_cast<std::size_t>(it->second)];
        const bool better =
            cell.measured && (!held.measured || cell.time.medianMs < held.time.medianMs);
        if (better) it->second = index;
    }
    for (const auto& [key, index] : shown) {
        const tiles::TileCell& cell = sweep.cells[static_cast<std::size_t>(index)];
        TileHeatmapCell drawn;
        drawn.column = key.first;
        drawn.row = key.second;
        drawn.value = tileMetricValue(cell, choice.metric, sweep);
        if (cell.report.refusal)
            drawn.refusal = qs(cell.report.refusal->reason);
        else if (!cell.measured && !cell.error.empty())
            drawn.refusal = qs(cell.error);
        drawn.best = cell.best;
        drawn.tiedWithBest = cell.tiedWithBest;
        drawn.fasterThanBaseline = clearlyFaster(cell, baseline);
        drawn.tooltip = cellTooltip(cell, sweep);
        drawn.runIndex = index;
        data.cells.push_back(drawn);
    }
    return data;
}

TileRooflineData rooflineData(const tiles::TileSweep& sweep, const std::string& followed,
                              const std::map<std::string, int>& selection,
                              const QString& dataSource) {
    TileRooflineData data;
    data.title = QObject::tr("Tile roofline");
    data.dataSource = dataSource;
    data.copyRoofGBps = sweep.limits.copyBandwidthGBps;
    data.computeRoofTflops = sweep.limits.computeTflops;
    data.computeRoofSource =
        QObject::tr("roofs: copy %1 · compute %2")
            .arg(qs(sweep.limits.copyBandwidthSource), qs(sweep.limits.computeSource));
    data.followedParameter = tuningTitle(sweep.request.base.pipeline, followed);
    // Intensity per DRAM byte where every measured cell has counters, else per model byte.
    bool allDram = true;
    for (const tiles::TileCell& cell : sweep.cells)
        if (cell.measured && !cell.dramBytes) allDram = false;
    const auto pointOf = [&](const tiles::TileCell& cell, int index) {
        TileRooflinePoint point;
        const double bytes = allDram && cell.dramBytes
                                 ? *cell.dramBytes
                                 : static_cast<double>(cell.report.modelBytes);
        point.flopsPerByte = bytes > 0 ? cell.report.modelFlops / bytes : 0.0;
        point.tflops = cell.tflops;
        point.name = tilesLine(cell.report.configuration);
        point.tooltip = cellTooltip(cell, sweep);
        point.runIndex = index;
        return point;
    };
    const std::map<std::string, int> wanted = othersWanted(sweep, selection);
    std::vector<std::pair<int, TileRooflinePoint>> path;
    for (int index = 0; index < static_cast<int>(sweep.cells.size()); ++index) {
        const tiles::TileCell& cell = sweep.cells[static_cast<std::size_t>(index)];
        if (!cell.measured || cell.tflops <= 0) continue;
        const TileRooflinePoint point = pointOf(cell, index);
        data.points.push_back(point);
        if (matchesOthers(cell.report.configuration, wanted, followed, followed))
            path.emplace_back(tuningOf(cell.report.configuration, followed), point);
    }
    std::sort(path.begin(), path.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [value, point] : path) data.path.push_back(point);
    const auto referencePoint = [&](const tiles::ReferenceTiming* reference) {
        std::optional<TileRooflinePoint> point;
        if (!reference || reference->time.medianMs <= 0 || reference->modelBytes == 0) return point;
        point.emplace();
        point->flopsPerByte = reference->modelFlops / static_cast<double>(reference->modelBytes);
        point->tflops = reference->modelFlops / (reference->time.medianMs * 1e9);
        point->name = qs(reference->title);
        point->tooltip =
            QStringLiteral("%1\n%2").arg(qs(reference->title), timeText(reference->time));
        return point;
    };
    data.baseline = referencePoint(baselineReference(sweep));
    data.leanest = referencePoint(leanestReference(sweep));
    data.baselineTitle = baselineTitle(sweep);
    data.leanestTitle = leanestTitle(sweep);
    data.perDramByte = allDram && !data.points.isEmpty();
    QStringList caption;
    caption << qs(sweep.deviceName.empty() ? sweep.limits.name : sweep.deviceName)
            << shapeLine(sweep.request.base);
    if (data.copyRoofGBps > 0)
        caption << QObject::tr("copy roof %1 GB/s (%2)")
                       .arg(data.copyRoofGBps, 0, 'f', 0)
                       .arg(qs(sweep.limits.copyBandwidthSource));
    if (data.computeRoofTflops > 0)
        caption << QObject::tr("compute roof %1 TFLOP/s (%2)")
                       .arg(data.computeRoofTflops, 0, 'f', 0)
                       .arg(qs(sweep.limits.computeSource));
    // Above the slanted roof a configuration moved fewer DRAM bytes than the model counts: its
    // re-reads were served by the L2.
    int aboveCopyRoof = 0;
    for (const TileRooflinePoint& point : data.points)
        if (data.copyRoofGBps > 0 &&
            point.tflops > 1.05 * data.copyRoofGBps * point.flopsPerByte / 1e3)
            ++aboveCopyRoof;
    if (aboveCopyRoof > 0 && !data.perDramByte)
        caption << QObject::tr("%1 above the copy roof: the model counts re-reads the L2 serves")
                       .arg(aboveCopyRoof);
    data.caption = caption.join(QStringLiteral(" · "));
    if (data.points.isEmpty()) data.emptyMessage = QObject::tr("No configuration measured yet.");
    return data;
}

QStringList reportLines(const tiles::ResourceReport& report) {
    QStringList lines;
    const tiles::CompiledResources& compiled = report.compiled;
    if (compiled.known) {
        lines << QObject::tr("registers %1 per thread · spills %2 B per thread")
                     .arg(compiled.registersPerThread)
                     .arg(compiled.localBytesPerThread);
        lines << QObject::tr("shared memory %1 static + %2 dynamic")
                     .arg(model::formatKibibytes(static_cast<quint64>(compiled.staticSharedBytes)),
                          model::formatKibibytes(report.launch.dynamicSharedBytes));
        lines << QObject::tr("%1 threads per block · %2 blocks per SM · occupancy %3")
                     .arg(report.launch.threadsPerBlock)
                     .arg(compiled.blocksPerMultiprocessor)
                     .arg(model::formatPercent(compiled.theoreticalOccupancy));
        if (!compiled.choice.empty()) lines << QObject::tr("build: %1").arg(qs(compiled.choice));
    } else {
        lines << QObject::tr("%1 threads per block · %2 dynamic shared memory (%3 stages)")
                     .arg(report.launch.threadsPerBlock)
                     .arg(model::formatKibibytes(report.launch.dynamicSharedBytes))
                     .arg(report.launch.pipelineStages);
    }
    if (!report.gridWords.empty()) lines << QObject::tr("grid: %1").arg(qs(report.gridWords));
    lines << QObject::tr("model: %1 moved · %2 GFLOP")
                 .arg(model::formatBytes(report.modelBytes))
                 .arg(report.modelFlops / 1e9, 0, 'f', 2);
    if (report.predictedMs > 0)
        lines << QObject::tr("predicted %1 ms (%2 bound, %3 roofs)")
                     .arg(model::formatMilliseconds(report.predictedMs), qs(report.predictedBound),
                          report.limits.live ? QObject::tr("measured") : QObject::tr("spec-sheet"));
    return lines;
}

QString cellTooltip(const tiles::TileCell& cell, const tiles::TileSweep& sweep) {
    QStringList lines;
    const tiles::TileConfiguration& configuration = cell.report.configuration;
    lines << tilesLine(configuration) << shapeLine(configuration);
    if (cell.report.refusal) {
        lines << QObject::tr("refused: %1").arg(qs(cell.report.refusal->reason));
        if (const QString peer = model::peerCellLine(cell, sweep); !peer.isEmpty()) lines << peer;
        return lines.join(QLatin1Char('\n'));
    }
    if (cell.measured) {
        lines << QObject::tr("time %1").arg(timeText(cell.time));
        lines << QObject::tr("%1 GB/s · %2 TFLOP/s")
                     .arg(model::formatGBps(cell.gbps))
                     .arg(cell.tflops, 0, 'f', 1);
        lines << (cell.dramBytes
                      ? QObject::tr("DRAM %1 of %2 requested")
                            .arg(model::formatBytes(static_cast<quint64>(*cell.dramBytes)),
                                 model::formatBytes(cell.requestedBytes))
                      : QObject::tr("requested %1 (DRAM not measured)")
                            .arg(model::formatBytes(cell.requestedBytes)));
        lines << (cell.checkOk ? QObject::tr("check ok (error %1, tolerance %2)")
                               : QObject::tr("check FAILED (error %1, tolerance %2)"))
                     .arg(model::formatRelativeError(cell.checkError),
                          model::formatRelativeError(cell.checkTolerance));
        if (const tiles::ReferenceTiming* baseline = baselineReference(sweep);
            baseline && baseline->time.medianMs > 0 && cell.time.medianMs > 0) {
            const double speedup = baseline->time.medianMs / cell.time.medianMs;
            const QString tie = tiles::overlaps(cell.time, baseline->time)
                                    ? QObject::tr(" (within its spread: a tie)")
                                    : QString();
            const QChar times(0x00D7);
            lines << (speedup >= 1.0
                          ? QObject::tr("%1 faster than %2%3")
                                .arg(model::formatTimes(speedup, times), baselineTitle(sweep), tie)
                          : QObject::tr("%1 slower than %2%3")
                                .arg(model::formatTimes(1.0 / speedup, times), baselineTitle(sweep),
                                     tie));
        }
    } else if (!cell.error.empty()) {
        lines << QObject::tr("failed: %1").arg(qs(cell.error));
    } else {
        lines << QObject::tr("not measured yet");
    }
    lines << reportLines(cell.report);
    if (!cell.limiters.empty()) {
        QStringList limiters;
        for (const std::string& limiter : cell.limiters) limiters << qs(limiter);
        lines << QObject::tr("limited by: %1").arg(limiters.join(QStringLiteral("; ")));
    }
    if (const QString peer = model::peerCellLine(cell, sweep); !peer.isEmpty()) lines << peer;
    if (const QString kernel = model::peerKernelLine(cell, sweep); !kernel.isEmpty())
        lines << kernel;
    if (cell.best)
        lines << QObject::tr("the best of the sweep");
    else if (cell.tiedWithBest)
        lines << QObject::tr("tied with the best (intervals overlap)");
    return lines.join(QLatin1Char('\n'));
}

model::Recording recordingOfCell(const tiles::TileSweep& sweep, int cellIndex) {
    model::Recording recording;
    if (cellIndex < 0 || cellIndex >= static_cast<int>(sweep.cells.size())) return recording;
    const tiles::TileCell& cell = sweep.cells[static_cast<std::size_t>(cellIndex)];
    const tiles::TileConfiguration& configuration = cell.report.configuration;
    const PipelineSpec* pipeline = findPipeline(configuration.pipeline);
    if (!pipeline || !cell.measured) return recording;
    recording.createdAt = qs(sweep.created);
    recording.producer = qs(sweep.producer);
    recording.device.backend = BackendKind::Cuda;
    recording.device.name = sweep.deviceName.empty() ? sweep.limits.name : sweep.deviceName;
    recording.device.computeCapabilityMajor = sweep.limits.computeCapabilityMajor;
    recording.device.computeCapabilityMinor = sweep.limits.computeCapabilityMinor;
    recording.device.multiprocessors = sweep.limits.multiprocessors;
    recording.device.driverVersion = sweep.driverVersion;
    recording.device.runtimeVersion = sweep.runtimeVersion;
    recording.counterStatus =
        QObject::tr("a tile sweep's cell: timings and the traffic model").toStdString();

    const auto runOf = [&](const std::string& variantName, double medianMs, bool checkOk) {
        model::VariantResult run;
        run.pipeline = configuration.pipeline;
        run.variant = variantName;
        run.problem = configuration.problem;
        run.backend = BackendKind::Cuda;
        run.passesCounted = pipeline->countsPasses;
        run.timeMs = medianMs;
        run.check.ok = checkOk;
        run.timingSource = MeasurementSource::TimingModel;
        const VariantSpec* variant = findVariant(*pipeline, variantName);
        if (!variant) return run;
        const std::vector<KernelSpec> kernels = variant->kernelsFor(configuration.problem);
        for (const KernelSpec& kernel : kernels) {
            KernelResult record;
            record.name = kernel.name;
            record.modelBytesRead = kernel.traffic.bytesRead();
            record.modelBytesWritten = kernel.traffic.bytesWritten();
            record.modelFlops = kernel.traffic.flops;
            // One kernel: the variant's time is the kernel's. Several: their split is unknown.
            if (kernels.size() == 1) record.timeMs = medianMs;
            run.modelBytesRead += record.modelBytesRead;
            run.modelBytesWritten += record.modelBytesWritten;
            run.modelFlops += record.modelFlops;
            run.passes += kernel.passes();
            run.kernels.push_back(record);
        }
        return run;
    };
    model::VariantResult tiled = runOf(configuration.variant, cell.time.medianMs, cell.checkOk);
    tiled.check.error = cell.checkError;
    tiled.check.tolerance = cell.checkTolerance;
    const tiles::CompiledResources& compiled = cell.report.compiled;
    if (tiled.kernels.size() == 1 && compiled.known) {
        KernelResult& kernel = tiled.kernels.front();
        kernel.resources.known = true;
        kernel.resources.registersPerThread = compiled.registersPerThread;
        kernel.resources.localBytesPerThread = compiled.localBytesPerThread;
        kernel.resources.sharedBytesPerBlock =
            compiled.staticSharedBytes + static_cast<int>(cell.report.launch.dynamicSharedBytes);
        kernel.resources.blockSize = cell.report.launch.threadsPerBlock;
        kernel.resources.gridSize = static_cast<int>(cell.report.launch.blocks);
        kernel.resources.theoreticalOccupancy = compiled.theoreticalOccupancy;
    }
    recording.runs.push_back(tiled);
    for (const tiles::ReferenceTiming& reference : sweep.references)
        if (reference.time.medianMs > 0)
            recording.runs.push_back(
                runOf(reference.variant, reference.time.medianMs, reference.checkOk));
    return recording;
}

}  // namespace fusescope
