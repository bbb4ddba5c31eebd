// The worker's short jobs: the CPU's calibration for run estimates, the backends' description
// and the self-test's probe.
#include "measure/counter_provider.h"
#include "runtime/backend.h"
#include "worker/cpu_run_estimate.h"
#include "worker/run_worker.h"
#include "worker/worker_observers.h"

namespace fusescope {

RunWorker::JobEnd RunWorker::perform(const CalibrationCommand& command, const JobContext& job) {
    job.started({});
    // Stops between the calibration's steps and inside their launches, as a run does; the
    // calibration reports no progress through it.
    const WorkerRunObserver observer(job);
    if (!measureCpuSpeeds(command.threads, observer) || job.cancelled()) return cancelledWith();
    return finished(command.threads);
}

RunWorker::JobEnd RunWorker::perform(const ProbeCommand&, const JobContext& job) {
    job.started({});
    return finished(QVariant::fromValue(describeBackends()));
}

RunWorker::JobEnd RunWorker::perform(const SelfTestCommand& command, const JobContext& job) {
    job.started({});
    // The provider the measured runs use: CUPTI takes one client per process.
    if (!provider_) provider_ = providerFactory_ ? providerFactory_() : createCounterProvider();
    return finished(
        QVariant::fromValue(selftest::probeMachine(command.recordingFolders, provider_.get())));
}

BackendSummary RunWorker::describeBackends() {
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
    return summary;
}

}  // namespace fusescope
