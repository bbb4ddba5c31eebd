#include "worker/cpu_run_estimate.h"

#include <map>
#include <mutex>

#include "runtime/backend.h"

namespace fusescope {
namespace {

// Measured speeds by thread count; an empty entry is a measurement that failed. The lock is
// held only to read or write the table, never while measuring, so readers never wait long.
struct SpeedTable {
    std::mutex mutex;
    std::map<int, std::optional<MachineSpeeds>> measured;
};

SpeedTable& speedTable() {
    static SpeedTable table;
    return table;
}

}  // namespace

bool runsOnCpu(const RunCommand& command, const BackendSummary& summary) {
    const BackendChoice backend = command.request.target.backend;
    return backend == BackendChoice::Cpu || (backend == BackendChoice::Auto && !summary.cudaUsable);
}

std::optional<MachineSpeeds> knownCpuSpeeds(int threads) {
    SpeedTable& table = speedTable();
    const std::lock_guard lock(table.mutex);
    const auto found = table.measured.find(threads);
    return found == table.measured.end() ? std::nullopt : found->second;
}

bool cpuSpeedsSettled(int threads) {
    SpeedTable& table = speedTable();
    const std::lock_guard lock(table.mutex);
    return table.measured.contains(threads);
}

bool measureCpuSpeeds(int threads, const RunObserver& observer) {
    if (cpuSpeedsSettled(threads)) return true;
    const std::unique_ptr<Backend> backend = createCpuBackend(threads);
    const Result<MachineSpeeds> speeds = measureSpeeds(*backend, threads, observer);
    if (!speeds && speeds.status().code() == ErrorCode::Cancelled) return false;
    SpeedTable& table = speedTable();
    const std::lock_guard lock(table.mutex);
    table.measured.emplace(threads, speeds ? std::optional<MachineSpeeds>(*speeds) : std::nullopt);
    return true;
}

std::optional<double> estimateCpuRunSeconds(const RunCommand& command) {
    const std::optional<MachineSpeeds> speeds = knownCpuSpeeds(command.request.cpuThreads);
    if (!speeds) return std::nullopt;
    return estimateRunSeconds(command.request, *speeds);
}

}  // namespace fusescope
