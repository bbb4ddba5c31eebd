#include "selftest/check_list.h"

#include <algorithm>

namespace fusescope::selftest {
namespace {

const QString kDriverFix = QStringLiteral(
    "Install the NVIDIA driver 580 or newer (CUDA 13), e.g. from NVIDIA's Debian repository, "
    "then reboot or load the nvidia module.");
const QString kCounterPermissionFix = QStringLiteral(
    "An administrator can allow profiling for every user: put the line `options nvidia "
    "NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d/nvidia-profiling.conf, then "
    "reload the nvidia module (or reboot); or run FuseScope as root.");
const QString kCuptiFix = QStringLiteral(
    "Install the CUDA toolkit's CUPTI (libcupti.so.13) and add its folder, e.g. "
    "/usr/local/cuda/targets/x86_64-linux/lib, to LD_LIBRARY_PATH.");
const QString kNvrtcFix = QStringLiteral(
    "Install the CUDA toolkit's NVRTC (libnvrtc.so.13) and add its folder, e.g. "
    "/usr/local/cuda/targets/x86_64-linux/lib, to LD_LIBRARY_PATH.");

// Where the GPU items are needed: a FAIL there, a SKIP elsewhere.
bool gpuNeeded(const MachineProbe& probe, const VerdictOptions& options) {
    return options.requireGpu || probe.gpu.gpuPresent();
}

Check notApplicable(const QString& name, const QString& why, const QString& fix = {}) {
    return {name, CheckStatus::Skip, why, fix};
}

Check driverCheck(const MachineProbe& probe, const VerdictOptions& options) {
    const QString name = QStringLiteral("NVIDIA driver");
    const GpuProbe& gpu = probe.gpu;
    if (!gpu.kernelModule.isEmpty())
        return {name,
                CheckStatus::Pass,
                QStringLiteral("kernel module %1 is loaded").arg(gpu.kernelModule),
                {}};
    if (gpu.cudaUsable) return {name, CheckStatus::Pass, QStringLiteral("the driver answers"), {}};
    const QString found = gpu.deviceNodes ? QStringLiteral(
                                                "/dev/nvidia* exist but no NVIDIA kernel module "
                                                "version can be read")
                                          : QStringLiteral("no NVIDIA kernel module is loaded");
    if (gpuNeeded(probe, options)) return {name, CheckStatus::Fail, found, kDriverFix};
    return notApplicable(name, found + QStringLiteral(": no NVIDIA GPU here, the lesson runs on "
                                                      "the CPU backend"));
}

Check runtimeCheck(const MachineProbe& probe, const VerdictOptions& options) {
    const QString name = QStringLiteral("CUDA runtime");
    const GpuProbe& gpu = probe.gpu;
    if (!gpu.cudaBuilt) {
        const QString found =
            QStringLiteral("this FuseScope was built without the CUDA toolkit (CPU backend only)");
        const QString fix = QStringLiteral(
            "Use a FuseScope built with CUDA 13 (the toolkit in /usr/local/cuda when building).");
        if (gpuNeeded(probe, options)) return {name, CheckStatus::Fail, found, fix};
        return notApplicable(name, found);
    }
    if (gpu.cudaUsable) {
        QString found =
            QStringLiteral("CUDA runtime %1 (linked into FuseScope)")
                .arg(gpu.runtimeVersion.isEmpty() ? QStringLiteral("?") : gpu.runtimeVersion);
        if (!gpu.driverVersion.isEmpty())
            found += QStringLiteral("; the driver supports CUDA %1").arg(gpu.driverVersion);
        return {name, CheckStatus::Pass, found, {}};
    }
    if (gpuNeeded(probe, options)) return {name, CheckStatus::Fail, gpu.cudaReason, kDriverFix};
    return notApplicable(name, gpu.cudaReason);
}

Check gpuAccessCheck(const MachineProbe& probe, const VerdictOptions& options) {
    const QString name = QStringLiteral("GPU access");
    const GpuProbe& gpu = probe.gpu;
    if (gpu.backendCreated)
        return {name, CheckStatus::Pass, QStringLiteral("%1 is usable").arg(gpu.deviceName), {}};
    if (gpu.cudaUsable)
        return {name, CheckStatus::Fail, gpu.backendError,
                QStringLiteral("Check that this user may open /dev/nvidia* (group video or render) "
                               "and that no other program holds the GPU in exclusive mode.")};
    const QString why = QStringLiteral("no usable CUDA device (see CUDA runtime)");
    if (gpuNeeded(probe, options)) return {name, CheckStatus::Fail, why, kDriverFix};
    return notApplicable(name, why);
}

Check countersCheck(const MachineProbe& probe) {
    const QString name = QStringLiteral("Counter permission");
    const CounterProbe& counters = probe.counters;
    if (!counters.probed) return notApplicable(name, QStringLiteral("needs a usable GPU"));
    if (counters.available)
        return {name,
                CheckStatus::Pass,
                QStringLiteral("hardware counters can be read (%1)").arg(counters.provider),
                {}};
    switch (counters.refusal) {
        case CounterRefusal::Privileges:
            return {name, CheckStatus::Warn,
                    QStringLiteral("profiling is restricted to administrators "
                                   "(ERR_NVGPUCTRPERM): Measure shows timing and the pass model "
                                   "only"),
                    kCounterPermissionFix};
        case CounterRefusal::LibraryMissing:
        case CounterRefusal::NotBuilt:
            return notApplicable(name, QStringLiteral("needs CUPTI (see CUPTI)"));
        default:
            return {name, CheckStatus::Warn, counters.reason,
                    QString::fromStdString(refusalAdvice(counters.refusal))};
    }
}

Check cuptiCheck(const MachineProbe& probe) {
    const QString name = QStringLiteral("CUPTI");
    if (!probe.counters.probed) return notApplicable(name, QStringLiteral("needs a usable GPU"));
    if (probe.cupti.found)
        return {name,
                CheckStatus::Pass,
                QStringLiteral("the counter module and libcupti.so.13 load"),
                {}};
    return {name, CheckStatus::Warn, probe.cupti.error, kCuptiFix};
}

Check nvrtcCheck(const MachineProbe& probe) {
    const QString name = QStringLiteral("NVRTC");
    if (probe.nvrtc.found)
        return {name,
                CheckStatus::Pass,
                QStringLiteral("libnvrtc.so.13 loads: MLP tiles other than the defaults and the "
                               "TF32 lesson kernel are compiled with it at run time"),
                {}};
    if (!probe.gpu.cudaUsable) return notApplicable(name, QStringLiteral("needs a usable GPU"));
    return {name, CheckStatus::Warn,
            QStringLiteral("libnvrtc.so.13 is not found (%1): the precompiled kernels run, but "
                           "the tile explorer, MLP tiles other than the defaults and the TF32 "
                           "lesson kernel are refused")
                .arg(probe.nvrtc.error),
            kNvrtcFix};
}

Check pipelineCheck(const PipelineProbe& run) {
    Check check;
    check.name = QStringLiteral("Pipeline %1 on %2 (%3)").arg(run.pipeline, run.backend, run.label);
    const QString fix = run.backend == QLatin1String("cpu")
                            ? QStringLiteral(
                                  "This is a bug in FuseScope or a broken build: run "
                                  "scripts/test.sh and report its output.")
                            : QStringLiteral(
                                  "Run `fusescope-cli run --pipeline %1 --backend cuda "
                                  "%2` to see the full error; check the "
                                  "driver and the GPU's health (nvidia-smi).")
                                  .arg(run.pipeline, run.arguments);
    if (!run.error.isEmpty()) {
        check.status = CheckStatus::Fail;
        check.found = QStringLiteral("the run failed: %1").arg(run.error);
        check.fix = fix;
        return check;
    }
    if (run.variants == 0 || run.variantsCorrect != run.variants) {
        check.status = CheckStatus::Fail;
        check.found = run.variants == 0 ? QStringLiteral("the run gave no variant")
                                        : QStringLiteral("%1 of %2 variants wrong at %3: %4")
                                              .arg(run.variants - run.variantsCorrect)
                                              .arg(run.variants)
                                              .arg(run.problem)
                                              .arg(run.failedVariants.join(QStringLiteral("; ")));
        check.fix = fix;
        return check;
    }
    check.status = CheckStatus::Pass;
    check.found = QStringLiteral("%1 variants match the reference at %2 (largest error %3)")
                      .arg(run.variants)
                      .arg(run.problem)
                      .arg(run.maxRelativeError, 0, 'g', 3);
    if (!run.refusedVariants.isEmpty())
        check.found +=
            QStringLiteral("; left out: %1").arg(run.refusedVariants.join(QStringLiteral("; ")));
    return check;
}

QVector<Check> pipelineChecks(const MachineProbe& probe, const VerdictOptions& options) {
    QVector<Check> checks;
    bool cpuRan = false;
    bool cudaRan = false;
    for (const PipelineProbe& run : probe.pipelines) {
        checks << pipelineCheck(run);
        cpuRan = cpuRan || run.backend == QLatin1String("cpu");
        cudaRan = cudaRan || run.backend == QLatin1String("cuda");
    }
    if (!cpuRan)
        checks << Check{QStringLiteral("Pipelines on cpu"), CheckStatus::Fail,
                        QStringLiteral("no pipeline ran on the CPU backend"),
                        QStringLiteral("This is a bug in FuseScope or a broken build: run "
                                       "scripts/test.sh and report its output.")};
    if (!cudaRan) {
        const QString why = QStringLiteral("no usable GPU (see GPU access)");
        if (gpuNeeded(probe, options))
            checks << Check{QStringLiteral("Pipelines on cuda"), CheckStatus::Fail, why,
                            QStringLiteral("Fix the GPU items above first.")};
        else
            checks << notApplicable(QStringLiteral("Pipelines on cuda"), why);
    }
    return checks;
}

Check displayCheck(const MachineProbe& probe) {
    const QString name = QStringLiteral("Display");
    const DisplayProbe& display = probe.display;
    if (display.interactive)
        return {name,
                CheckStatus::Pass,
                display.isWindow
                    ? QStringLiteral("the window runs on Qt's %1 platform").arg(display.platform)
                    : QStringLiteral("%1: the window can open here").arg(display.platform),
                {}};
    const QString found =
        display.isWindow
            ? QStringLiteral("Qt's %1 platform shows no window to anyone").arg(display.platform)
            : QStringLiteral(
                  "DISPLAY and WAYLAND_DISPLAY are unset: the window cannot open here "
                  "(fusescope-cli and recordings work)");
    return {name, CheckStatus::Warn, found,
            QStringLiteral("Log in to a desktop session, or use `ssh -X`; without a display, "
                           "`xvfb-run -a fusescope --screenshot shot.png` makes pictures.")};
}

Check recordingsCheck(const MachineProbe& probe) {
    const QString name = QStringLiteral("Shipped recordings");
    const ShippedRecordingsProbe& shipped = probe.recordings;
    const QString reinstall = QStringLiteral(
        "Reinstall FuseScope (the package or the bundle puts them in share/fusescope/recordings).");
    if (shipped.recordings.isEmpty())
        return {name, CheckStatus::Fail,
                QStringLiteral("no shipped recordings found (looked in %1)")
                    .arg(shipped.foldersSearched.join(QStringLiteral(", "))),
                reinstall};
    QStringList broken;
    for (const RecordingProbe& recording : shipped.recordings)
        if (!recording.error.isEmpty()) broken << recording.error;
    if (!broken.isEmpty())
        return {name, CheckStatus::Fail,
                QStringLiteral("%1 of %2 in %3 do not load: %4")
                    .arg(broken.size())
                    .arg(shipped.recordings.size())
                    .arg(shipped.folderFound, broken.join(QStringLiteral("; "))),
                reinstall};
    return {
        name,
        CheckStatus::Pass,
        QStringLiteral("%1 load from %2").arg(shipped.recordings.size()).arg(shipped.folderFound),
        {}};
}

}  // namespace

QString checkStatusText(CheckStatus status) {
    switch (status) {
        case CheckStatus::Pass:
            return QStringLiteral("PASS");
        case CheckStatus::Warn:
            return QStringLiteral("WARN");
        case CheckStatus::Skip:
            return QStringLiteral("SKIP");
        case CheckStatus::Fail:
            return QStringLiteral("FAIL");
    }
    return QStringLiteral("FAIL");
}

QVector<Check> checkList(const MachineProbe& probe, const VerdictOptions& options) {
    QVector<Check> checks{driverCheck(probe, options),
                          runtimeCheck(probe, options),
                          gpuAccessCheck(probe, options),
                          countersCheck(probe),
                          cuptiCheck(probe),
                          nvrtcCheck(probe)};
    checks << pipelineChecks(probe, options);
    checks << displayCheck(probe) << recordingsCheck(probe);
    return checks;
}

bool machineReady(const QVector<Check>& checks) {
    return std::none_of(checks.begin(), checks.end(),
                        [](const Check& check) { return check.status == CheckStatus::Fail; });
}

QString checkSummary(const QVector<Check>& checks) {
    const auto count = [&](CheckStatus status) {
        return std::count_if(checks.begin(), checks.end(),
                             [&](const Check& check) { return check.status == status; });
    };
    return QStringLiteral("%1 PASS, %2 WARN, %3 SKIP, %4 FAIL: %5")
        .arg(count(CheckStatus::Pass))
        .arg(count(CheckStatus::Warn))
        .arg(count(CheckStatus::Skip))
        .arg(count(CheckStatus::Fail))
        .arg(machineReady(checks) ? QStringLiteral("ready for class")
                                  : QStringLiteral("NOT ready for class"));
}

}  // namespace fusescope::selftest
