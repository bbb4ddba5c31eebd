#include "selftest/machine_probe.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>

#include <dlfcn.h>

#include <algorithm>

#include "measure/counter_provider.h"
#include "model/problem_options.h"
#include "model/recording_catalog.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"

namespace fusescope::selftest {
namespace {

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  ..." -> "580.65.06".
QString nvidiaKernelModuleVersion() {
    QFile file(QStringLiteral("/proc/driver/nvidia/version"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QString line = QString::fromLocal8Bit(file.readLine());
    const QString marker = QStringLiteral("Kernel Module");
    const qsizetype at = line.indexOf(marker);
    if (at < 0) return QStringLiteral("unknown version");
    const QStringList words =
        line.mid(at + marker.size()).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return words.isEmpty() ? QStringLiteral("unknown version") : words.first();
}

GpuProbe probeGpu(std::unique_ptr<Backend>& cudaBackend) {
    GpuProbe gpu;
    const BackendAvailability availability = probeBackends();
    gpu.cudaBuilt = availability.cudaBuilt;
    gpu.cudaUsable = availability.cudaUsable;
    gpu.cudaReason = QString::fromStdString(availability.cudaReason);
    gpu.kernelModule = nvidiaKernelModuleVersion();
    gpu.deviceNodes = QFileInfo::exists(QStringLiteral("/dev/nvidiactl")) ||
                      QFileInfo::exists(QStringLiteral("/dev/nvidia0"));
    if (!gpu.cudaUsable) return gpu;
    Result<std::unique_ptr<Backend>> created = createCudaBackend();
    if (!created) {
        gpu.backendError = QString::fromStdString(created.status().message());
        return gpu;
    }
    cudaBackend = std::move(*created);
    gpu.backendCreated = true;
    const DeviceInfo device = cudaBackend->describe();
    gpu.deviceName = QString::fromStdString(device.name);
    gpu.driverVersion = QString::fromStdString(device.driverVersion);
    gpu.runtimeVersion = QString::fromStdString(device.runtimeVersion);
    return gpu;
}

void probeCounters(MachineProbe& probe, CounterProvider* shared) {
    if (!probe.gpu.backendCreated) return;
    std::unique_ptr<CounterProvider> own;
    if (!shared) own = createCounterProvider();
    CounterProvider& provider = shared ? *shared : *own;
    const CounterCapability capability = provider.capability();
    probe.counters.probed = true;
    probe.counters.available = capability.available;
    probe.counters.refusal = capability.refusal;
    probe.counters.reason = QString::fromStdString(capability.reason);
    probe.counters.provider = QString::fromStdString(capability.provider);
    // The provider loads the CUPTI module (which links libcupti.so.13) before it asks anything.
    probe.cupti.found = capability.refusal != CounterRefusal::LibraryMissing &&
                        capability.refusal != CounterRefusal::NotBuilt;
    if (!probe.cupti.found) probe.cupti.error = probe.counters.reason;
}

LibraryProbe probeLibrary(const char* name) {
    LibraryProbe library;
    void* handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        const char* error = dlerror();
        library.error = error ? QString::fromLocal8Bit(error) : QStringLiteral("not found");
        return library;
    }
    // Left loaded: NVRTC carries its own C++ runtime, whose start-up allocations would look
    // leaked (LeakSanitizer) once unloaded, and a program that uses NVRTC loads it anyway.
    library.found = true;
    return library;
}

PipelineProbe runOne(Backend& backend, const PipelineSpec& pipeline, const Problem& problem,
                     const QString& label) {
    PipelineProbe result;
    result.backend = QString::fromLatin1(backendName(backend.kind()));
    result.pipeline = QString::fromStdString(pipeline.name);
    result.label = label;
    // The probe runs every variant: the tunings any of them takes.
    result.problem = QString::fromStdString(describeProblem(pipeline, problem, {}));
    const model::ProblemText text = model::problemText(problem);
    result.arguments =
        QStringLiteral("--shape %1 --dtype %2%3")
            .arg(text.dimensions, text.dtype,
                 text.tuning.isEmpty() ? QString() : QStringLiteral(" --tile ") + text.tuning);
    RunRequest request;
    request.pipeline = pipeline.name;
    request.problem = problem;
    request.settings.repeats = 1;
    request.settings.warmup = 0;
    // Variants without code here for this problem are left out and named; the rest run.
    for (const VariantSpec& variant : pipeline.variants) {
        std::vector<KernelSpec> kernels;
        if (Result<std::vector<KernelLaunch>> launches =
                planLaunches(backend, variant, request, kernels);
            launches)
            request.variants.push_back(variant.name);
        else
            result.refusedVariants << QString::fromStdString(launches.status().message());
    }
    if (request.variants.empty()) {
        result.error = result.refusedVariants.join(QStringLiteral("; "));
        return result;
    }
    RunObserver observer;
    const Result<RunReport> report = runPipeline(backend, request, observer);
    if (!report) {
        result.error = QString::fromStdString(report.status().message());
        return result;
    }
    for (const VariantResult& variant : report->variants) {
        ++result.variants;
        result.maxRelativeError = std::max(result.maxRelativeError, variant.check.error);
        if (variant.check.ok) {
            ++result.variantsCorrect;
            continue;
        }
        result.failedVariants << QStringLiteral(
                                     "%1: %2 element(s) unwritten, max relative error %3")
                                     .arg(QString::fromStdString(variant.variant))
                                     .arg(variant.check.unwrittenElements)
                                     .arg(variant.check.error, 0, 'g', 3);
    }
    return result;
}

QVector<PipelineProbe> runPipelines(Backend& backend) {
    QVector<PipelineProbe> results;
    for (const PipelineSpec& pipeline : pipelines()) {
        // A small problem: the elementwise pipelines at kSelfTestElements, every other
        // dimension at most kSelfTestExtent, so that the whole check takes seconds on a CPU.
        Problem problem = pipeline.defaultProblem();
        for (const DimensionSpec& dimension : pipeline.dimensions) {
            const bool elements = pipeline.countsPasses && dimension.name == pipeline.sizeDimension;
            problem.dimensions[dimension.name] = std::max(
                dimension.minimum,
                std::min(dimension.defaultValue, elements ? kSelfTestElements : kSelfTestExtent));
        }
        const TuningSpec* vector = pipeline.findTuning(kVectorWidthTuning);
        const std::vector<int> widths = vector ? vector->allowed : std::vector<int>{0};
        for (DType dtype : pipeline.dtypes)
            for (int width : widths) {
                problem.dtype = dtype;
                QStringList label;
                if (vector) {
                    problem.tuning[vector->name] = width;
                    label << QStringLiteral("vector %1").arg(width);
                }
                if (pipeline.dtypes.size() > 1) label << QString::fromUtf8(dtypeTitle(dtype));
                results << runOne(backend, pipeline, problem, label.join(QStringLiteral(", ")));
            }
    }
    return results;
}

ShippedRecordingsProbe probeRecordings(const QStringList& folders) {
    // The same catalog the window's start page lists, so the check sees what users see.
    const model::RecordingCatalog catalog = model::findRecordings(folders);
    ShippedRecordingsProbe probe;
    probe.foldersSearched = catalog.foldersSearched;
    probe.folderFound = catalog.folder;
    for (const model::CatalogEntry& entry : catalog.entries)
        probe.recordings << RecordingProbe{entry.path, entry.error};
    return probe;
}

}  // namespace

MachineProbe probeMachine(const QStringList& recordingFolders, CounterProvider* counters) {
    MachineProbe probe;
    std::unique_ptr<Backend> cuda;
    probe.gpu = probeGpu(cuda);
    probeCounters(probe, counters);
    probe.nvrtc = probeLibrary("libnvrtc.so.13");
    probe.pipelines = runPipelines(*createCpuBackend());
    if (cuda) probe.pipelines << runPipelines(*cuda);
    probe.recordings = probeRecordings(recordingFolders);
    return probe;
}

DisplayProbe probeDisplayFromEnvironment() {
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    DisplayProbe display;
    for (const char* variable : {"WAYLAND_DISPLAY", "DISPLAY"}) {
        const QString value = environment.value(QLatin1String(variable));
        if (value.isEmpty()) continue;
        display.platform = QStringLiteral("%1=%2").arg(QLatin1String(variable), value);
        display.interactive = true;
        break;
    }
    return display;
}

QStringList shippedRecordingFolders() {
    return model::shippedRecordingFolders();
}

}  // namespace fusescope::selftest
