#include "worker/run_worker.h"

#include "worker/worker_run_observer.h"
#include "worker/worker_sweep_observer.h"

#include <QElapsedTimer>

#include "measure/counter_provider.h"
#include "measure/measured_run.h"
#include "model/run_conversion.h"
#include "runtime/backend.h"
#include "runtime/runner.h"

namespace fusescope {

namespace {

MeasureOptions measureOptionsFor(const RunCommand& command) {
    MeasureOptions options;
    options.samplingIntervalNs = std::int64_t{command.samplingIntervalUs} * 1000;
    return options;
}

}  // namespace

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
    qRegisterMetaType<fusescope::RunCommand>();
    qRegisterMetaType<fusescope::BackendSummary>();
    qRegisterMetaType<fusescope::model::RunRecord>();
    qRegisterMetaType<fusescope::model::Recording>();
    qRegisterMetaType<fusescope::SweepCommand>();
    qRegisterMetaType<fusescope::SweepPointUpdate>();
    qRegisterMetaType<fusescope::SweepOutcome>();
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
    request.cpuThreads = command.cpuThreads;

    WorkerRunObserver observer(*this, generation);
    const bool measured =
        command.measure && (backend->kind() == BackendKind::Cuda || measureOnCpu_);
    if (measured && !provider_)
        provider_ = providerFactory_ ? providerFactory_() : createCounterProvider();
    Result<RunReport> report =
        measured ? runMeasured(*backend, *provider_, request, measureOptionsFor(command), observer)
                 : runPipeline(*backend, request, observer);
    observer.flushSamples();
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

void RunWorker::sweep(fusescope::SweepCommand command, quint64 generation) {
    if (isStale(generation)) return;
    if (isCancelled(generation)) {
        emit sweepCancelled(generation);
        return;
    }
    QString note, error;
    Backend* backend = backendFor(command.backend, &note, &error);
    if (!backend) {
        emit sweepFailed(generation, error);
        return;
    }
    emit sweepStarted(generation, note);
    SweepOutcome outcome;
    outcome.request = command.request();
    WorkerSweepObserver observer(*this, generation);
    Result<SweepReport> report = runSweep(*backend, outcome.request, observer);
    if (isStale(generation)) return;  // superseded while running: deliver nothing
    if (!report) {
        if (report.status().code() == ErrorCode::Cancelled)
            emit sweepCancelled(generation);
        else
            emit sweepFailed(generation, QString::fromStdString(report.status().message()));
        return;
    }
    outcome.report = std::move(*report);
    emit sweepFinished(generation, outcome);
}

}  // namespace fusescope
