#include "worker/run_worker.h"

#include "worker/worker_observers.h"

#include <QElapsedTimer>

#include "measure/counter_provider.h"
#include "measure/measured_run.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "worker/cpu_run_estimate.h"
#include "worker/tile_engine.h"

namespace fusescope {

QString RunWorker::backendNote(const BackendSelection& selection) {
    if (!selection.autoNote.empty()) return QString::fromStdString(selection.autoNote);
    return selection.backend->kind() == BackendKind::Cuda
               ? QObject::tr("running on the CUDA backend (GPU %1)")
                     .arg(selection.backend->describe().deviceIndex)
               : QObject::tr("running on the CPU backend");
}

namespace {

// The types the worker's queued signals and job events carry, known to Qt's meta-type system.
template <typename... Types>
void registerMetaTypes() {
    (qRegisterMetaType<Types>(), ...);
}

}  // namespace

RunWorker::RunWorker(QObject* parent) : JobEvents(parent), tileEngine_(productionTileEngine()) {
    registerMetaTypes<RunCommand, BackendSummary, model::VariantResult, model::Recording,
                      SweepCommand, SweepPointUpdate, SweepOutcome, selftest::MachineProbe,
                      TileReportCommand, TileReportOutcome, TileRunCommand, TileRunOutcome,
                      TileSweepCommand, TileSweepProgress, tiles::TileCell, tiles::TileSweep,
                      JobRequest, JobKind, JobStage, SampleBatch, TileCellUpdate>();
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
    // The views learn that the GPU is gone: a probe's result nobody asked for.
    emit jobFinished(jobs_.start(JobKind::Probe), JobKind::Probe,
                     QVariant::fromValue(describeBackends()));
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

RunWorker::JobEnd RunWorker::endedBy(const Status& status) {
    if (status.code() == ErrorCode::Cancelled) return cancelledWith();
    // A broken GPU is reset even when nobody waits for this job any more.
    return failed(failureMessage(status));
}

JobId RunWorker::enqueue(JobRequest request) {
    const JobId id = jobs_.start(kindOf(request));
    QMetaObject::invokeMethod(
        this, [this, id, request = std::move(request)] { execute(id, request); },
        Qt::QueuedConnection);
    return id;
}

void RunWorker::execute(JobId id, JobRequest request) {
    const JobKind kind = kindOf(request);
    // A newer request arrived while this one waited in the queue: skip it silently.
    if (jobs_.isStale(id, kind)) return;
    const JobContext job(*this, id, kind);
    const JobEnd end =
        jobs_.isCancelled(id, kind)
            ? cancelledWith(cancelledBeforeStart(request))
            : std::visit([this, &job](const auto& command) { return perform(command, job); },
                         request);
    if (jobs_.isStale(id, kind)) return;  // superseded while running: deliver nothing
    switch (end.state) {
        case JobEnd::State::Finished:
            emit jobFinished(id, kind, end.value);
            break;
        case JobEnd::State::Failed:
            emit jobFailed(id, kind, end.message);
            break;
        case JobEnd::State::Cancelled:
            emit jobCancelled(id, kind, end.value);
            break;
    }
}

QVariant RunWorker::cancelledBeforeStart(const JobRequest& request) {
    if (const auto* tileSweep = std::get_if<TileSweepCommand>(&request)) {
        tiles::TileSweep partial;
        partial.request = tileSweep->request;
        partial.cancelled = true;
        return QVariant::fromValue(partial);
    }
    return {};
}

bool JobContext::stale() const {
    return worker_.jobs().isStale(id_, kind_);
}

bool JobContext::cancelled() const {
    return worker_.jobs().isCancelled(id_, kind_);
}

void JobContext::started(const QString& note) const {
    emit worker_.jobStarted(id_, kind_, note);
}

void JobContext::progress(const QVariant& update) const {
    if (!stale()) emit worker_.jobProgress(id_, kind_, update);
}

Result<BackendSelection> RunWorker::startBackend(const Target& target) {
    // The GPU is chosen here, once per run, on the thread that owns CUDA.
    Result<BackendSelection> selection = selectBackend(target, backends_);
    if (!selection)
        return Status(selection.status().code(),
                      "CUDA is not usable: " + selection.status().message());
    return selection;
}

RunWorker::JobEnd RunWorker::perform(const RunCommand& command, const JobContext& job) {
    Result<BackendSelection> selection = startBackend(command.request.target);
    if (!selection) return failed(QString::fromStdString(selection.status().message()));
    Backend& backend = *selection->backend;
    job.started(backendNote(*selection));

    WorkerRunObserver observer(job);
    const bool measured = command.measure && (backend.kind() == BackendKind::Cuda || measureOnCpu_);
    if (measured && !provider_)
        provider_ = providerFactory_ ? providerFactory_() : createCounterProvider();
    Result<RunReport> report =
        measured ? runMeasured(backend, *provider_, command.request, *command.measure, observer)
                 : runPipeline(backend, command.request, observer);
    observer.flushSamples();
    if (!report) return endedBy(report.status());
    return finished(
        QVariant::fromValue(model::recordingMadeNowBy(*report, QLatin1String(kWorkerProgram))));
}

RunWorker::JobEnd RunWorker::perform(const SweepCommand& command, const JobContext& job) {
    Result<BackendSelection> selection = startBackend(command.request.target);
    if (!selection) return failed(QString::fromStdString(selection.status().message()));
    job.started(backendNote(*selection));
    SweepOutcome outcome;
    outcome.request = command.request;
    WorkerSweepObserver observer(job);
    Result<SweepReport> report = runSweep(*selection->backend, outcome.request, observer);
    if (!report) return endedBy(report.status());
    outcome.report = std::move(*report);
    return finished(QVariant::fromValue(outcome));
}

}  // namespace fusescope
