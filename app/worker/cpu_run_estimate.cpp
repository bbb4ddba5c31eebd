#include "worker/cpu_run_estimate.h"

#include <map>
#include <mutex>

#include "runtime/backend.h"
#include "runtime/run_estimate.h"

namespace fusescope {
namespace {

std::optional<MachineSpeeds> cpuSpeeds(int threads) {
    static std::mutex mutex;
    static std::map<int, MachineSpeeds> measured;
    const std::lock_guard lock(mutex);
    if (const auto found = measured.find(threads); found != measured.end()) return found->second;
    const std::unique_ptr<Backend> backend = createCpuBackend(threads);
    const Result<MachineSpeeds> speeds = measureSpeeds(*backend, threads);
    if (!speeds) return std::nullopt;
    measured.emplace(threads, *speeds);
    return *speeds;
}

}  // namespace

bool runsOnCpu(const RunCommand& command, const BackendSummary& summary) {
    return command.backend == BackendChoice::Cpu ||
           (command.backend == BackendChoice::Auto && !summary.cudaUsable);
}

std::optional<double> estimateCpuRunSeconds(const RunCommand& command) {
    const std::optional<MachineSpeeds> speeds = cpuSpeeds(command.request.cpuThreads);
    if (!speeds) return std::nullopt;
    return estimateRunSeconds(command.request, *speeds);
}

}  // namespace fusescope
