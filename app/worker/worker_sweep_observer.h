#pragma once
// The sweep's observer inside the worker: streams each measured point at once (a sweep has a
// few dozen, so they need no batching) and throttles progress like a run's.
#include <QString>

#include "runtime/runner.h"
#include "worker/job_context.h"
#include "worker/progress_throttle.h"
#include "worker/run_worker.h"
#include "worker/sweep_command.h"

namespace fusescope {

class WorkerSweepObserver final : public RunObserver {
  public:
    explicit WorkerSweepObserver(const JobContext& job) : job_(job) {}

    void progress(double fraction, std::string_view stage) override {
        const QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        if (throttle_.admit(fraction, text))
            job_.progress(QVariant::fromValue(JobStage{fraction, text}));
    }

    void variantFinished(const VariantResult& result) override {
        if (job_.stale()) return;
        SweepPointUpdate update;
        update.variant = QString::fromStdString(result.variant);
        update.launches = static_cast<int>(result.kernels.size());
        const std::uint64_t bytes = result.modelBytesRead + result.modelBytesWritten;
        // A sweep varies the pipeline's size dimension.
        const PipelineSpec* pipeline = findPipeline(result.pipeline);
        const std::uint64_t size = pipeline ? result.problem.dimension(pipeline->sizeDimension) : 0;
        update.bytesPerElement = size > 0 ? static_cast<double>(bytes) / size : 0.0;
        update.point.n = size;
        update.point.bytes = bytes;
        update.point.launches = update.launches;
        update.point.timeMs = result.timeMs;
        update.point.checkOk = result.check.ok;
        update.point.maxRelativeError = result.check.error;
        job_.progress(QVariant::fromValue(update));
    }

    bool cancelled() const override { return job_.cancelled(); }

  private:
    const JobContext& job_;
    ProgressThrottle throttle_;
};

}  // namespace fusescope
