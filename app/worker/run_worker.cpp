#include "worker/run_worker.h"

#include "worker/worker_run_observer.h"
#include "worker/worker_sweep_observer.h"

#include <QElapsedTimer>

#include "measure/counter_provider.h"
#include "measure/measured_run.h"
#include "model/run_conversion.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "worker/cpu_run_estimate.h"
#include "worker/tile_engine.h"

namespace fusescope {
namespace {

// Says which backend runs: for auto also why; for a named backend just which.
QString backendNote(const BackendSelection& selection) {
    if (!selection.autoNote.empty()) return QString::fromStdString(selection.autoNote);
    return selection.backend->kind() == BackendKind::Cuda
               ? QObject::tr("running on the CUDA backend (GPU %1)")
                     .arg(selection.backend->describe().deviceIndex)
               : QObject::tr("running on the CPU backend");
}

}  // namespace

RunWorker::RunWorker(QObject* parent) : QObject(parent), tileEngine_(productionTileEngine()) {
    qRegisterMetaType<fusescope::RunCommand>();
    qRegisterMetaType<fusescope::BackendSummary>();
    qRegisterMetaType<fusescope::model::RunRecord>();
    qRegisterMetaType<fusescope::model::Recording>();
    qRegisterMetaType<fusescope::SweepCommand>();
    qRegisterMetaType<fusescope::SweepPointUpdate>();
    qRegisterMetaType<fusescope::SweepOutcome>();
    qRegisterMetaType<fusescope::selftest::MachineProbe>();
    qRegisterMetaType<fusescope::TileReportCommand>();
    qRegisterMetaType<fusescope::TileReportOutcome>();
    qRegisterMetaType<fusescope::TileRunCommand>();
    qRegisterMetaType<fusescope::TileRunOutcome>();
    qRegisterMetaType<fusescope::TileSweepCommand>();
    qRegisterMetaType<fusescope::TileSweepProgress>();
    qRegisterMetaType<fusescope::tiles::TileCell>();
    qRegisterMetaType<fusescope::tiles::TileSweep>();
}

// Backends are destroyed here; the owner deletes the worker on its own thread (deleteLater on
// QThread::finished) so CUDA is released by the thread that created it.
RunWorker::~RunWorker() = default;

void RunWorker::setTileEngine(std::shared_ptr<TileEngine> engine) {
    tileEngine_ = engine ? std::move(engine) : productionTileEngine();
}

void RunWorker::setCounterProviderFactory(CounterProviderFactory factory, bool measureOnCpu) {
    providerFactory_ = std::move(factory);
    measureOnCpu_ = measureOnCpu;
    provider_.reset();
}

void RunWorker::setCudaDriver(CudaDriver driver) {
    backends_ = BackendSet(std::move(driver));
}

QString RunWorker::recoverAfterFailure() {
    const Status health = backends_.cudaHealth();
    if (health) return {};
    // The counter provider's state belongs to the broken context too: it is made again on need.
    provider_.reset();
    const QString why = QString::fromStdString(health.message());
    const Status reset = backends_.resetCuda();
    if (reset)
        return tr(" The GPU stopped answering (%1); FuseScope reset it, and the next run starts "
                  "with a fresh GPU context.")
            .arg(why);
    probe();  // the views learn that the GPU is gone
    // CUDA documents errors such as an illegal address as lasting for the process: where the
    // driver also refuses a fresh context, only a new start of the program gets the GPU back.
    return tr(" The GPU stopped answering (%1) and could not be reset (%2): the GPU is "
              "unavailable until FuseScope is started again; the CPU backend and recordings "
              "still work.")
        .arg(why, QString::fromStdString(reset.message()));
}

QString RunWorker::failureMessage(const Status& status) {
    return QString::fromStdString(status.message()) + recoverAfterFailure();
}

quint64 RunWorker::nextReportGeneration() {
    return ++latestReportGeneration_;
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

void RunWorker::measureCpuSpeeds(int threads) {
    fusescope::measureCpuSpeeds(threads);
    emit cpuSpeedsMeasured(threads);
}

void RunWorker::probe() {
    BackendSummary summary;
    const BackendAvailability availability = backends_.driver().probe();
    summary.cudaBuilt = availability.cudaBuilt;
    summary.cudaUsable = availability.cudaUsable;
    summary.cudaReason = QString::fromStdString(availability.cudaReason);
    const DeviceInfo cpu = backends_.cpu().describe();
    summary.cpuName = QString::fromStdString(cpu.name);
    summary.cpuLastLevelCacheBytes = cpu.l2CacheBytes;
    summary.cpuThreads = cpu.multiprocessors;
    if (availability.cudaUsable) {
        if (Result<Backend*> cuda = backends_.cuda()) {
            const DeviceInfo gpu = (*cuda)->describe();
            summary.cudaDeviceName = QString::fromStdString(gpu.name);
            summary.cudaL2Bytes = gpu.l2CacheBytes;
            summary.cudaDriverVersion = QString::fromStdString(gpu.driverVersion);
            summary.cudaRuntimeVersion = QString::fromStdString(gpu.runtimeVersion);
            if (Result<std::vector<std::string>> names = cudaDeviceNames())
                for (const std::string& name : *names)
                    summary.cudaDevices << QString::fromStdString(name);
        } else {
            summary.cudaUsable = false;
            summary.cudaReason = QString::fromStdString(cuda.status().message());
        }
    }
    emit backendsProbed(summary);
}

void RunWorker::selfTest(QStringList recordingFolders) {
    // The provider the measured runs use: CUPTI takes one client per process.
    if (!provider_) provider_ = providerFactory_ ? providerFactory_() : createCounterProvider();
    emit selfTestFinished(selftest::probeMachine(recordingFolders, provider_.get()));
}

Result<BackendSelection> RunWorker::startBackend(BackendChoice choice,
                                                 std::optional<int> cudaDevice) {
    // The GPU is chosen here, once per run, on the thread that owns CUDA.
    Result<BackendSelection> selection = selectBackend(choice, backends_, cudaDevice);
    if (!selection)
        return Status(selection.status().code(),
                      "CUDA is not usable: " + selection.status().message());
    return selection;
}

void RunWorker::run(fusescope::RunCommand command, quint64 generation) {
    // A newer request arrived while this one waited in the queue: skip it silently.
    if (isStale(generation)) return;
    if (isCancelled(generation)) {
        emit cancelled(generation);
        return;
    }
    Result<BackendSelection> selection = startBackend(command.backend, command.cudaDevice);
    if (!selection) {
        emit runFailed(generation, QString::fromStdString(selection.status().message()));
        return;
    }
    Backend& backend = *selection->backend;
    emit runStarted(generation, backendNote(*selection));

    WorkerRunObserver observer(*this, generation);
    const bool measured = command.measure && (backend.kind() == BackendKind::Cuda || measureOnCpu_);
    if (measured && !provider_)
        provider_ = providerFactory_ ? providerFactory_() : createCounterProvider();
    Result<RunReport> report =
        measured ? runMeasured(backend, *provider_, command.request, *command.measure, observer)
                 : runPipeline(backend, command.request, observer);
    observer.flushSamples();
    // A broken GPU is reset even when nobody waits for this run any more.
    const QString failure = !report && report.status().code() != ErrorCode::Cancelled
                                ? failureMessage(report.status())
                                : QString();
    if (isStale(generation)) return;  // superseded while running: deliver nothing
    if (!report) {
        if (report.status().code() == ErrorCode::Cancelled)
            emit cancelled(generation);
        else
            emit runFailed(generation, failure);
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
    Result<BackendSelection> selection = startBackend(command.backend, command.cudaDevice);
    if (!selection) {
        emit sweepFailed(generation, QString::fromStdString(selection.status().message()));
        return;
    }
    emit sweepStarted(generation, backendNote(*selection));
    SweepOutcome outcome;
    outcome.request = command.request;
    WorkerSweepObserver observer(*this, generation);
    Result<SweepReport> report = runSweep(*selection->backend, outcome.request, observer);
    const QString failure = !report && report.status().code() != ErrorCode::Cancelled
                                ? failureMessage(report.status())
                                : QString();
    if (isStale(generation)) return;  // superseded while running: deliver nothing
    if (!report) {
        if (report.status().code() == ErrorCode::Cancelled)
            emit sweepCancelled(generation);
        else
            emit sweepFailed(generation, failure);
        return;
    }
    outcome.report = std::move(*report);
    emit sweepFinished(generation, outcome);
}

}  // namespace fusescope
