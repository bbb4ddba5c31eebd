#pragma once
// The runner's observers inside the worker: they turn the runner's callbacks (on the worker
// thread) into the job's progress updates. In a header so tests can drive them.
#include <QElapsedTimer>
#include <QString>
#include <QVector>
#include <optional>

#include "model/recording.h"
#include "runtime/progress_estimate.h"
#include "runtime/runner.h"
#include "worker/job_context.h"
#include "worker/progress_throttle.h"
#include "worker/run_worker.h"
#include "worker/sweep_command.h"

namespace fusescope {

// What the worker's observers share: the job's cancel flag, and its progress throttled to the
// stage's changes and about 30 updates a second.
class JobObserver : public RunObserver {
  public:
    explicit JobObserver(const JobContext& job) : job_(job) {}
    JobObserver(JobContext&&) = delete;  // it keeps a reference: no temporary

    bool cancelled() const override { return job_.cancelled(); }

  protected:
    // The stage as text, or nothing where the throttle holds this update back.
    std::optional<QString> admitted(double fraction, std::string_view stage) {
        QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        if (!throttle_.admit(fraction, text)) return std::nullopt;
        return text;
    }
    void sendStage(double fraction, const QString& text) const {
        job_.progress(QVariant::fromValue(JobStage{fraction, text}));
    }

    const JobContext& job_;

  private:
    ProgressThrottle throttle_;
};

// Forwards the runner's callbacks (on the worker thread) as the job's throttled progress.
class WorkerRunObserver final : public JobObserver {
  public:
    using JobObserver::JobObserver;

    void progress(double fraction, std::string_view stage) override {
        std::optional<QString> text = admitted(fraction, stage);
        if (!text) return;
        if (const std::string timing = describeProgress(clock_.at(fraction)); !timing.empty())
            *text += QStringLiteral(" · ") + QString::fromStdString(timing);
        sendStage(fraction, *text);
    }

    void variantFinished(const VariantResult& result) override {
        job_.progress(QVariant::fromValue(result));
    }

    // Batches are gathered and sent at most every kProgressIntervalMs (and whenever the
    // variant changes), so a 10 us sampling interval cannot flood the UI thread.
    void samplesArrived(std::string_view variant, std::span<const BandwidthSample> samples,
                        std::span<const TimelineSpan> spans) override {
        if (job_.stale()) return;
        const QString name =
            QString::fromUtf8(variant.data(), static_cast<qsizetype>(variant.size()));
        if (name != pendingVariant_) flushSamples();
        pendingVariant_ = name;
        for (const BandwidthSample& sample : samples) pendingSamples_.push_back(sample);
        for (const TimelineSpan& span : spans) pendingSpans_.push_back(span);
        if (!sinceSamples_.isValid() || sinceSamples_.elapsed() >= RunWorker::kProgressIntervalMs)
            flushSamples();
    }

    void flushSamples() {
        if ((pendingSamples_.isEmpty() && pendingSpans_.isEmpty()) || job_.stale()) return;
        job_.progress(
            QVariant::fromValue(SampleBatch{pendingVariant_, pendingSamples_, pendingSpans_}));
        pendingSamples_.clear();
        pendingSpans_.clear();
        sinceSamples_.start();
    }

  private:
    ProgressClock clock_;
    QString pendingVariant_;
    QVector<BandwidthSample> pendingSamples_;
    QVector<fusescope::TimelineSpan> pendingSpans_;
    QElapsedTimer sinceSamples_;
};

// Streams each measured point at once: a sweep has a few dozen, so they need no batching.
class WorkerSweepObserver final : public JobObserver {
  public:
    using JobObserver::JobObserver;

    void progress(double fraction, std::string_view stage) override {
        if (const std::optional<QString> text = admitted(fraction, stage))
            sendStage(fraction, *text);
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
};

}  // namespace fusescope
