#pragma once
// The runner's observer inside the worker: turns the runner's callbacks (on the worker thread)
// into the job's throttled progress updates. In a header so tests can drive it.
#include <QElapsedTimer>
#include <QString>
#include <QVector>

#include "model/recording.h"
#include "runtime/progress_estimate.h"
#include "runtime/runner.h"
#include "worker/job_context.h"
#include "worker/progress_throttle.h"
#include "worker/run_worker.h"

namespace fusescope {

// Forwards the runner's callbacks (on the worker thread) as the job's throttled progress.
class WorkerRunObserver final : public RunObserver {
  public:
    explicit WorkerRunObserver(const JobContext& job) : job_(job) {}

    void progress(double fraction, std::string_view stage) override {
        QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        if (!throttle_.admit(fraction, text)) return;
        if (const std::string timing = describeProgress(clock_.at(fraction)); !timing.empty())
            text += QStringLiteral(" · ") + QString::fromStdString(timing);
        job_.progress(QVariant::fromValue(JobStage{fraction, text}));
    }

    void variantFinished(const VariantResult& result) override {
        job_.progress(QVariant::fromValue(result));
    }

    bool cancelled() const override { return job_.cancelled(); }

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
    const JobContext& job_;
    ProgressThrottle throttle_;
    ProgressClock clock_;
    QString pendingVariant_;
    QVector<BandwidthSample> pendingSamples_;
    QVector<fusescope::TimelineSpan> pendingSpans_;
    QElapsedTimer sinceSamples_;
};

}  // namespace fusescope
