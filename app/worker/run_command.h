#pragma once
// What the UI asks the worker to run, as a plain value that crosses threads by copy.
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace fusescope {

enum class BackendChoice { Auto, Cuda, Cpu };

QString backendChoiceKey(BackendChoice choice);  // "auto", "cuda", "cpu"
// An unknown key gives Auto and sets *ok to false.
BackendChoice backendChoiceFromKey(const QString& key, bool* ok = nullptr);

struct RunCommand {
    QString pipeline;
    QStringList variants;  // empty: every variant of the pipeline
    quint64 n = 1u << 24;
    int vectorWidth = 4;
    BackendChoice backend = BackendChoice::Auto;
    int repeats = 20;
    int warmup = 3;
    int cpuThreads = 0;  // CPU backend: host threads, 0 = every hardware thread
    // On the CUDA backend: also measure counters and bandwidth over time where the GPU allows
    // (a counter run and a sampling run after the timed run). Refusals are reported, not fatal.
    bool measure = true;
    int samplingIntervalUs = 20;  // PM sampling interval, 10 to 1000 us
};

// What the worker found out about the backends of this machine (probed on the worker thread).
struct BackendSummary {
    bool cudaBuilt = false;
    bool cudaUsable = false;
    QString cudaReason;  // why CUDA is not usable, in words; empty when it is
    QString cudaDeviceName;
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
