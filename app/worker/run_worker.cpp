#include "worker/run_worker.h"

#include <QElapsedTimer>

#include "measure/counter_provider.h"
#include "measure/measured_run.h"
#include "model/run_conversion.h"
#include "runtime/backend.h"
#include "runtime/runner.h"

namespace fusescope {

// Forwards the runner's callbacks (on the worker thread) as throttled, generation-tagged signals.
class WorkerRunObserver final : public RunObserver {
  public:
    WorkerRunObserver(RunWorker& worker, quint64 generation)
        : worker_(worker), generation_(generation) {}

    // Stage changes always go out (a handful per variant); updates within a stage at most
    // every kProgressIntervalMs, so a fast loop of repeats cannot flood the UI thread.
    void progress(double fraction, std::string_view stage) override {
        const QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        const bool newStage = text != lastStage_;
        const bool final = fraction >= 1.0;
        if (sinceLast_.isValid() && !newStage && !final &&
            sinceLast_.elapsed() < RunWorker::kProgressIntervalMs)
            return;
        sinceLast_.start();
        lastStage_ = text;
        emit worker_.progress(generation_, fraction, text);
    }

    void variantFinished(const VariantResult& result) override {
        if (!worker_.isStale(generation_))
            emit worker_.variantFinished(generation_, model::runRecordFrom(result));
    }

    bool cancelled() const override { return worker_.isCancelled(generation_); }

    void samplesArrived(std::string_view variant, std::span<const BandwidthSample> samples,
                        std::span<const TimelineSpan> spans) override {
        if (worker_.isStale(generation_)) return;
        QVector<model::SampleRecord> sampleRecords;
        sampleRecords.reserve(static_cast<qsizetype>(samples.size()));
        for (const BandwidthSample& sample : samples) {
            model::SampleRecord record;
            record.timeNs = sample.startNs;
            record.durationNs = sample.endNs - sample.startNs;
            record.readBytesPerSecond = sample.readBytesPerSecond();
            record.writeBytesPerSecond = sample.writeBytesPerSecond();
            sampleRecords.push_back(record);
        }
        QVector<model::TimelineSpan> spanRecords;
        spanRecords.reserve(static_cast<qsizetype>(spans.size()));
        for (const TimelineSpan& span : spans) {
            model::TimelineSpan record;
            record.kind = span.kind == TimelineSpan::Kind::Kernel
                              ? model::TimelineSpan::Kind::Kernel
                              : model::TimelineSpan::Kind::Allocation;
            record.name = QString::fromStdString(span.name);
            record.startNs = span.startNs;
            record.endNs = span.endNs;
            record.bytes = span.bytes;
            spanRecords.push_back(record);
        }
        emit worker_.samplesArrived(
            generation_, QString::fromUtf8(variant.data(), static_cast<qsizetype>(variant.size())),
            sampleRecords, spanRecords);
    }

  private:
    RunWorker& worker_;
    quint64 generation_;
    QElapsedTimer sinceLast_;
    QString lastStage_;
};

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
    qRegisterMetaType<fusescope::RunCommand>();
    qRegisterMetaType<fusescope::BackendSummary>();
    qRegisterMetaType<fusescope::model::RunRecord>();
    qRegisterMetaType<fusescope::model::Recording>();
}

// Backends are destroyed here; the owner deletes the worker on its own thread (deleteLater on
// QThread::finished) so CUDA is released by the thread that created it.
RunWorker::~RunWorker() = default;

void RunWorker::setCounterProviderFactory(CounterProviderFactory factory, bool measureOnCpu) {
    providerFactory_ = std::move(factory);
    measureOnCpu_ = measureOnCpu;
    provider_.reset();
}

quint64 RunWorker::nextGeneration() {
    return ++latestGeneration_;
}

void RunWorker::requestCancel() {
    cancelledUpTo_.store(latestGeneration_.load());
}

bool RunWorker::isStale(quint64 generation) const {
    return generation != latestGeneration_.load();
}

bool RunWorker::isCancelled(quint64 generation) const {
    return isStale(generation) || generation <= cancelledUpTo_.load();
}

void RunWorker::probe() {
    BackendSummary summary;
    const BackendAvailability availability = probeBackends();
    summary.cudaBuilt = availability.cudaBuilt;
    summary.cudaUsable = availability.cudaUsable;
    summary.cudaReason = QString::fromStdString(availability.cudaReason);
    if (!cpuBackend_) cpuBackend_ = createCpuBackend();
    const DeviceInfo cpu = cpuBackend_->describe();
    summary.cpuName = QString::fromStdString(cpu.name);
    summary.cpuLastLevelCacheBytes = cpu.l2CacheBytes;
    summary.cpuThreads = cpu.multiprocessors;
    if (availability.cudaUsable) {
        QString note, error;
        if (Backend* cuda = backendFor(BackendChoice::Cuda, &note, &error)) {
            const DeviceInfo gpu = cuda->describe();
            summary.cudaDeviceName = QString::fromStdString(gpu.name);
            summary.cudaL2Bytes = gpu.l2CacheBytes;
            summary.cudaDriverVersion = QString::fromStdString(gpu.driverVersion);
            summary.cudaRuntimeVersion = QString::fromStdString(gpu.runtimeVersion);
        } else {
            summary.cudaUsable = false;
            summary.cudaReason = error;
        }
    }
    emit backendsProbed(summary);
}

Backend* RunWorker::backendFor(BackendChoice choice, QString* note, QString* error) {
    if (choice == BackendChoice::Auto) {
        const BackendAvailability availability = probeBackends();
        if (availability.cudaUsable) {
            if (Backend* cuda = backendFor(BackendChoice::Cuda, note, error)) {
                *note = tr("auto: CUDA is usable, running on the GPU");
                return cuda;
            }
            *note = tr("auto: CUDA failed to start (%1), running on the CPU").arg(*error);
        } else {
            *note = tr("auto: CUDA is not usable (%1), running on the CPU")
                        .arg(QString::fromStdString(availability.cudaReason));
        }
        error->clear();
        if (!cpuBackend_) cpuBackend_ = createCpuBackend();
        return cpuBackend_.get();
    }
    if (choice == BackendChoice::Cpu) {
        if (!cpuBackend_) cpuBackend_ = createCpuBackend();
        *note = tr("running on the CPU backend");
        return cpuBackend_.get();
    }
    if (!cudaBackend_) {
        Result<std::unique_ptr<Backend>> created = createCudaBackend();
        if (!created) {
            *error = tr("CUDA is not usable: %1")
                         .arg(QString::fromStdString(created.status().message()));
            return nullptr;
        }
        cudaBackend_ = std::move(*created);
    }
    *note = tr("running on the CUDA backend");
    return cudaBackend_.get();
}

void RunWorker::run(fusescope::RunCommand command, quint64 generation) {
    // A newer request arrived while this one waited in the queue: skip it silently.
    if (isStale(generation)) return;
    if (isCancelled(generation)) {
        emit cancelled(generation);
        return;
    }
    QString note, error;
    Backend* backend = backendFor(command.backend, &note, &error);
    if (!backend) {
        emit runFailed(generation, error);
        return;
    }
    emit runStarted(generation, note);

    RunRequest request;
    request.pipeline = command.pipeline.toStdString();
    for (const QString& variant : command.variants)
        request.variants.push_back(variant.toStdString());
    request.n = command.n;
    request.vectorWidth = command.vectorWidth;
    request.repeats = command.repeats;
    request.warmup = command.warmup;

    WorkerRunObserver observer(*this, generation);
    const bool measured =
        command.measure && (backend->kind() == BackendKind::Cuda || measureOnCpu_);
    if (measured && !provider_)
        provider_ = providerFactory_ ? providerFactory_() : createCounterProvider();
    Result<RunReport> report =
        measured ? runMeasured(*backend, *provider_, request, MeasureOptions{}, observer)
                 : runPipeline(*backend, request, observer);
    if (isStale(generation)) return;  // superseded while running: deliver nothing
    if (!report) {
        if (report.status().code() == ErrorCode::Cancelled)
            emit cancelled(generation);
        else
            emit runFailed(generation, QString::fromStdString(report.status().message()));
        return;
    }
    model::ConversionOptions options;
    options.producer = model::producerString(QStringLiteral("fusescope"));
    emit runFinished(generation, model::recordingFrom(*report, options));
}

}  // namespace fusescope
