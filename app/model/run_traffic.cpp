#include "model/run_traffic.h"

#include "pipelines/registry.h"
#include "pipelines/traffic_bounds.h"

namespace fusescope::model {
namespace {

bool allKernelsMeasured(const VariantResult& run) {
    if (run.kernels.empty()) return false;
    for (const KernelResult& kernel : run.kernels)
        if (!kernel.counters) return false;
    return true;
}

// The registry's kernels for the run, or none where it does not know the run's pipeline,
// variant or problem.
struct Planned {
    const PipelineSpec* pipeline = nullptr;
    const VariantSpec* variant = nullptr;
    std::vector<KernelSpec> kernels;
};

Planned plannedKernels(const VariantResult& run) {
    Planned planned;
    planned.pipeline = findPipeline(run.pipeline);
    if (!planned.pipeline || !checkProblem(*planned.pipeline, run.problem)) return {};
    planned.variant = findVariant(*planned.pipeline, run.variant);
    if (planned.variant) planned.kernels = planned.variant->kernelsFor(run.problem);
    return planned;
}

// The model's distinct bytes of each recorded kernel, matched by name (else by position).
QVector<KernelDram> modelDram(const VariantResult& run, const Planned& planned) {
    if (!planned.variant || planned.kernels.empty()) return {};
    QVector<KernelDram> kernels;
    for (std::size_t k = 0; k < run.kernels.size(); ++k) {
        const KernelSpec* spec = nullptr;
        for (const KernelSpec& candidate : planned.kernels)
            if (candidate.name == run.kernels[k].name) spec = &candidate;
        if (!spec && k < planned.kernels.size()) spec = &planned.kernels[k];
        if (!spec) return {};
        const DistinctBytes distinct = distinctBytes(*spec, *planned.variant, run.problem);
        kernels.push_back({double(distinct.read), double(distinct.written), DramSource::Model});
    }
    return kernels;
}

}  // namespace

QString dramSourceWord(DramSource source) {
    switch (source) {
        case DramSource::Measured:
            return QStringLiteral("measured");
        case DramSource::Model:
            return QStringLiteral("model");
        case DramSource::Unknown:
            break;
    }
    return QString::fromLatin1(kRequestedOnlyWords);
}

namespace {

// Which DRAM bytes a column over these runs divides: measured, the model's, or both.
struct DramSources {
    bool measured = false;
    bool modelled = false;
};

DramSources dramSourcesOf(const QVector<RunTraffic>& runs) {
    DramSources sources;
    for (const RunTraffic& run : runs) {
        sources.measured = sources.measured || run.dramSource == DramSource::Measured;
        sources.modelled = sources.modelled || run.dramSource == DramSource::Model;
    }
    return sources;
}

}  // namespace

QString rateColumnTitle(const QVector<RunTraffic>& runs) {
    const DramSources sources = dramSourcesOf(runs);
    if (sources.measured && sources.modelled)
        return QStringLiteral("DRAM GB/s (measured or model)");
    if (sources.measured) return QStringLiteral("DRAM GB/s");
    if (sources.modelled) return QStringLiteral("model GB/s");
    return QStringLiteral("GB/s %1").arg(QLatin1String(kRequestedOnlyWords));
}

QString rooflineColumnTitle(const QVector<RunTraffic>& runs) {
    const DramSources sources = dramSourcesOf(runs);
    if (sources.measured && sources.modelled)
        return QStringLiteral("% of copy roofline (DRAM, measured or model)");
    if (sources.modelled && !sources.measured) return QStringLiteral("% of copy roofline (model)");
    return QStringLiteral("% of copy roofline (DRAM)");
}

RunTraffic runTraffic(const VariantResult& run) {
    RunTraffic traffic;
    traffic.timeMs = run.timeMs;
    traffic.requestedBytes = double(run.modelBytesRead) + double(run.modelBytesWritten);
    traffic.executedFlops = run.modelFlops;
    traffic.usefulFlops = run.modelFlops;

    const Planned planned = plannedKernels(run);
    if (planned.pipeline)
        if (const std::optional<double> useful = usefulFlops(*planned.pipeline, run.problem))
            traffic.usefulFlops = *useful, traffic.usefulFlopsFromRegistry = true;

    if (allKernelsMeasured(run)) {
        traffic.dramSource = DramSource::Measured;
        for (const KernelResult& kernel : run.kernels)
            traffic.kernels.push_back({kernel.counters->dramBytesRead,
                                       kernel.counters->dramBytesWritten, DramSource::Measured});
    } else if (QVector<KernelDram> model = modelDram(run, planned); !model.isEmpty()) {
        traffic.dramSource = DramSource::Model;
        traffic.kernels = std::move(model);
    }
    for (const KernelDram& kernel : traffic.kernels) traffic.dramBytes += kernel.total();
    return traffic;
}

std::optional<double> rooflineShare(const RunTraffic& traffic, const RooflineResult& roofline) {
    if (!traffic.hasDram() || !(roofline.gbps() > 0) || !(traffic.timeMs > 0)) return std::nullopt;
    return traffic.dramGBps() / roofline.gbps();
}

}  // namespace fusescope::model
