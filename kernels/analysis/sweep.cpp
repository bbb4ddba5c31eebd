#include "analysis/sweep.h"

#include <algorithm>
#include <numeric>

#include "analysis/sweep_steps.h"
#include "pipelines/registry.h"

namespace fusescope {

RunRequest sweepPointRequest(const SweepRequest& request, std::uint64_t n) {
    RunRequest run;
    run.pipeline = request.pipeline;
    run.variants = request.variants;
    if (const PipelineSpec* pipeline = findPipeline(request.pipeline)) {
        run.problem = pipeline->defaultProblem();
        run.problem.dimensions[pipeline->sizeDimension] = n;
        if (pipeline->findTuning(kVectorWidthTuning))
            run.problem.tuning[std::string(kVectorWidthTuning)] = request.vectorWidth;
    }
    run.settings = request.settings;
    run.target = request.target;
    return run;
}

namespace {

// Passes one point's progress on as a share of the whole sweep, prefixed with its size ("M = 64").
class PointObserver final : public RunObserver {
  public:
    PointObserver(RunObserver& outer, std::string_view sizeName, std::uint64_t n, double from,
                  double to)
        : outer_(outer),
          prefix_(std::string(sizeName) + " = " + std::to_string(n) + ": "),
          from_(from),
          to_(to) {}

    void progress(double fraction, std::string_view stage) override {
        outer_.progress(from_ + (to_ - from_) * fraction, prefix_ + std::string(stage));
    }
    void variantFinished(const VariantResult& result) override { outer_.variantFinished(result); }
    bool cancelled() const override { return outer_.cancelled(); }

  private:
    RunObserver& outer_;
    std::string prefix_;
    double from_;
    double to_;
};

SweepPoint pointFrom(const VariantResult& result, const RooflineResult& roofline, std::uint64_t n) {
    SweepPoint point;
    point.n = n;
    point.bytes = result.modelBytesRead + result.modelBytesWritten;
    point.launches = static_cast<int>(result.kernels.size());
    point.timeMs = result.timeMs;
    point.checkOk = result.check.ok;
    point.maxRelativeError = result.check.error;
    point.rooflineGBps = roofline.gbps();
    return point;
}

// Share of the whole sweep's progress per size: work grows with N, but every point also pays a
// fixed cost (allocation, check, launches), so a tenth is shared out evenly.
std::vector<double> progressShares(const std::vector<std::uint64_t>& sizes) {
    const double total = std::accumulate(sizes.begin(), sizes.end(), 0.0);
    std::vector<double> shares;
    for (std::uint64_t n : sizes)
        shares.push_back(0.9 * static_cast<double>(n) / total + 0.1 / sizes.size());
    return shares;
}

}  // namespace

std::optional<Regime> SweepSeries::regimeAt(const SweepPoint& point) const {
    if (!fit) return std::nullopt;
    return fit->regimeAt(point.launches, static_cast<double>(point.bytes));
}

std::optional<double> SweepSeries::residualAt(const SweepPoint& point) const {
    if (!fit) return std::nullopt;
    const double predicted = fit->predictedTimeMs(point.launches, static_cast<double>(point.bytes));
    if (!(predicted > 0)) return std::nullopt;
    return (point.timeMs - predicted) / predicted;
}

std::uint64_t defaultSweepEnd(const SweepRequest& request, const DeviceInfo& device) {
    const std::uint64_t cap =
        device.backend == BackendKind::Cuda ? kDefaultSweepEndCuda : kDefaultSweepEndCpu;
    return std::min(cap, maxSizeFor(sweepPointRequest(request, 1), device));
}

Result<std::vector<std::uint64_t>> sweepSizes(const SweepRequest& request,
                                              const DeviceInfo& device) {
    const std::uint64_t to = request.to > 0 ? request.to : defaultSweepEnd(request, device);
    // The runner's own checks (pipeline, variants, vector, repeats, memory) at the largest N; a
    // start past what fits is reported as such, not as an end below the start.
    const std::uint64_t largest = std::max<std::uint64_t>({to, request.from, 1});
    if (Status s = validateRequest(sweepPointRequest(request, largest), device); !s) return s;
    if (request.to == 0 && request.from > to)
        return Status(ErrorCode::InvalidArgument,
                      "the sweep's start N = " + std::to_string(request.from) +
                          " is past its default end N = " + std::to_string(to) +
                          " on this backend: give the end (--to) too");
    return logSteps(request.from, to, request.stepsPerOctave);
}

void fitSeries(SweepSeries& series) {
    std::vector<FitSample> samples;
    for (const SweepPoint& point : series.points)
        if (point.checkOk)  // a wrong result's time says nothing about the variant
            samples.push_back(
                {point.n, point.launches, static_cast<double>(point.bytes), point.timeMs});
    Result<LaunchBandwidthFit> fit = fitLaunchBandwidthRobust(samples);
    if (fit) {
        series.fit = *fit;
        series.fitError.clear();
    } else {
        series.fit.reset();
        series.fitError = fit.status().message();
    }
}

Result<SweepReport> runSweep(Backend& backend, const SweepRequest& request, RunObserver& observer) {
    SweepReport report;
    backend.useHostThreads(0);  // a sweep's runs use every hardware thread
    report.device = backend.describe();
    report.pipeline = request.pipeline;
    report.vectorWidth = request.vectorWidth;
    report.repeats = request.settings.repeats;
    Result<std::vector<std::uint64_t>> sizes = sweepSizes(request, report.device);
    if (!sizes) return sizes.status();
    report.sizes = *sizes;

    const std::vector<double> shares = progressShares(report.sizes);
    const PipelineSpec* swept = findPipeline(request.pipeline);
    const std::string sizeName = swept ? swept->sizeDimension : "N";
    double done = 0.0;
    for (std::size_t k = 0; k < report.sizes.size(); ++k) {
        if (observer.cancelled()) return Status(ErrorCode::Cancelled, "cancelled by the user");
        const std::uint64_t n = report.sizes[k];
        PointObserver pointObserver(observer, sizeName, n, done, done + shares[k]);
        Result<RunReport> run = runPipeline(backend, sweepPointRequest(request, n), pointObserver);
        if (!run) return run.status();
        done += shares[k];

        if (report.series.empty()) {
            const PipelineSpec& pipeline = *findPipeline(request.pipeline);
            for (const VariantResult& result : run->variants) {
                const VariantSpec& spec = *findVariant(pipeline, result.variant);
                SweepSeries series;
                series.variant = spec.name;
                series.title = spec.title;
                const std::vector<KernelSpec> kernels =
                    spec.kernelsFor(sweepPointRequest(request, 1).problem);
                series.launches = static_cast<int>(kernels.size());
                double bytes = 0.0;
                for (const KernelSpec& kernel : kernels)
                    bytes += static_cast<double>(kernel.traffic.bytesRead() +
                                                 kernel.traffic.bytesWritten());
                series.bytesPerElement = bytes;
                report.series.push_back(std::move(series));
            }
        }
        for (std::size_t v = 0; v < run->variants.size(); ++v)
            report.series[v].points.push_back(pointFrom(run->variants[v], run->roofline, n));
    }
    for (SweepSeries& series : report.series) fitSeries(series);
    observer.progress(1.0, "done");
    return report;
}

}  // namespace fusescope
