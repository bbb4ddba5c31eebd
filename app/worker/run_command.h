#pragma once
// What to run, as one plain value that the run panel, the GUI's and the CLI's command lines fill
// and the worker hands on: the runner's own RunRequest travels inside it unchanged, so a field
// added to RunRequest reaches the runner without being copied by hand anywhere.
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

#include "measure/measured_run.h"
#include "runtime/backend_selection.h"
#include "runtime/runner.h"

namespace fusescope {

struct RunCommand {
    RunRequest request;  // its target says where: the GPU is chosen once per run, on the worker
    // Set: also measure counters and bandwidth over time where the GPU allows (a counter run and
    // a sampling run after the timed run). Refusals are reported, not fatal.
    std::optional<MeasureOptions> measure = MeasureOptions{};
};

// What the worker found out about the backends of this machine (probed on the worker thread).
struct BackendSummary {
    bool cudaBuilt = false;
    bool cudaUsable = false;
    QString cudaReason;  // why CUDA is not usable, in words; empty when it is
    QString cudaDeviceName;
    QStringList cudaDevices;  // every CUDA device of the host by ordinal ("NVIDIA H200")
    quint64 cudaL2Bytes = 0;
    QString cudaDriverVersion;
    QString cudaRuntimeVersion;
    QString cpuName;
    quint64 cpuLastLevelCacheBytes = 0;
    int cpuThreads = 0;
};

}  // namespace fusescope

Q_DECLARE_METATYPE(fusescope::RunCommand)
Q_DECLARE_METATYPE(fusescope::BackendSummary)
