#pragma once
// What the self-test ("a check before class") finds on this machine, as plain facts: the GPU
// stack, counters, libraries, a small run of every pipeline on every usable backend, the display
// and the shipped recordings. check_list.h turns the facts into the verdicts the views print.
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>
#include <cstdint>

#include "measure/counter_refusal.h"

namespace fusescope {
class CounterProvider;
}

namespace fusescope::selftest {

// The NVIDIA stack as the CUDA backend sees it.
struct GpuProbe {
    bool cudaBuilt = false;       // this FuseScope has a CUDA backend
    bool cudaUsable = false;      // probeBackends(): a CUDA device answers
    QString cudaReason;           // why not, in words (probeBackends())
    QString kernelModule;         // NVIDIA kernel module version, empty when none is loaded
    bool deviceNodes = false;     // /dev/nvidiactl or /dev/nvidia0 exist
    bool backendCreated = false;  // createCudaBackend() succeeded
    QString backendError;         // why it did not
    QString deviceName;           // describe() of the CUDA backend
    QString driverVersion;        // the CUDA version the driver supports, e.g. "13.0"
    QString runtimeVersion;       // the CUDA runtime FuseScope links, e.g. "13.0"

    // An NVIDIA GPU is installed here, working or not: the GPU lesson is meant to run.
    bool gpuPresent() const { return cudaUsable || !kernelModule.isEmpty() || deviceNodes; }
};

struct CounterProbe {
    bool probed = false;  // the counter provider was asked (only when the CUDA backend works)
    bool available = false;
    CounterRefusal refusal = CounterRefusal::None;
    QString reason;    // refusalReason()
    QString provider;  // "CUPTI 13.0 on NVIDIA H200", when available
};

struct LibraryProbe {
    bool found = false;
    QString error;  // dlerror() when not found
};

// One pipeline run on one backend at one small problem.
struct PipelineProbe {
    QString backend;  // "cpu", "cuda"
    QString pipeline;
    QString label;      // what sets this run apart: "vector 4", "bfloat16"
    QString problem;    // "N = 65,536 · float32 · vector 4"
    QString arguments;  // the CLI options that repeat it: "--n 65536 --vector 4"
    QString error;      // the run failed before checking (empty when it ran)
    int variants = 0;
    int variantsCorrect = 0;
    double maxRelativeError = 0.0;
    QStringList failedVariants;  // "scratch: 12 elements unwritten, max relative error 1"
    // Variants this backend has no code for in this problem (the MLP's production fusion in
    // tf32), with the reason; the others still run and are checked.
    QStringList refusedVariants;
};

struct DisplayProbe {
    QString platform;          // Qt platform ("xcb", "wayland", "offscreen") or the variable found
    bool interactive = false;  // a window can be shown to a person here
    bool isWindow = false;     // probed by the window (Qt's platform), not by the CLI
};

struct RecordingProbe {
    QString path;
    QString error;  // empty when it loads
};

struct ShippedRecordingsProbe {
    QStringList foldersSearched;
    QString folderFound;  // the first folder that exists, empty when none
    QVector<RecordingProbe> recordings;
};

struct MachineProbe {
    GpuProbe gpu;
    CounterProbe counters;
    LibraryProbe cupti;  // the counter module and libcupti.so.13 (from the counter provider)
    LibraryProbe nvrtc;  // libnvrtc.so.13 (kernels compiled at run time)
    QVector<PipelineProbe> pipelines;
    DisplayProbe display;
    ShippedRecordingsProbe recordings;
};

// The element count of the self-test's pipeline runs: small enough to take milliseconds on a CPU,
// large enough for the vector kernels' main loops and tails.
inline constexpr std::uint64_t kSelfTestElements = 65536;
inline constexpr std::uint64_t kSelfTestExtent = 128;

// Probes everything but the display (the window and the CLI each fill that in their own way).
// Runs kernels: call it on the thread that owns the GPU. `recordingFolders` are searched in
// order for shipped recordings (shippedRecordingFolders() by default). `counters` is the
// process's counter provider where it has one (CUPTI takes one client at a time); null: a
// provider of its own is made for the probe.
MachineProbe probeMachine(const QStringList& recordingFolders, CounterProvider* counters = nullptr);

// The display as the CLI sees it: DISPLAY or WAYLAND_DISPLAY.
DisplayProbe probeDisplayFromEnvironment();

// Where shipped recordings are installed: share/fusescope/recordings beside the program's bin/
// folder (the Debian package and the portable bundle), then the source tree's
// resources/recordings (a program run from its build folder).
QStringList shippedRecordingFolders();

}  // namespace fusescope::selftest

Q_DECLARE_METATYPE(fusescope::selftest::MachineProbe)
