#include "stage_test_runs.h"

#include "model/recording.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"

namespace fusescope::stagetest {

model::VariantResult syntheticRun(const QString& pipeline, const QString& variant, quint64 n,
                                  double kernelMs) {
    model::VariantResult run;
    run.pipeline = pipeline.toStdString();
    run.variant = variant.toStdString();
    run.problem.dimensions["N"] = n;
    run.problem.tuning["vector"] = 4;
    run.backend = BackendKind::Cuda;
    const PipelineSpec* spec = findPipeline(pipeline.toStdString());
    const VariantSpec* variantSpec = spec ? findVariant(*spec, variant.toStdString()) : nullptr;
    if (!variantSpec) return run;
    for (const KernelSpec& kernel : variantSpec->kernelsFor(run.problem)) {
        run.passes += static_cast<int>(kernel.passReads.size() + kernel.passWrites.size());
        run.modelBytesRead += kernel.traffic.bytesRead();
        run.modelBytesWritten += kernel.traffic.bytesWritten();
        fusescope::KernelResult record;
        record.name = kernel.name;
        record.timeMs = kernelMs;
        run.kernels.push_back(record);
        run.timeMs += kernelMs;
    }
    for (const BufferSpec& buffer : variantSpec->buffers)
        run.peakBytesInFlight += buffer.bytes(run.problem);
    run.timingSource = MeasurementSource::TimingModel;
    return run;
}

model::Recording cpuRecording(const QString& pipeline, const QStringList& variants, quint64 n) {
    std::unique_ptr<Backend> backend = createCpuBackend(2);
    RunRequest request;
    request.pipeline = pipeline.toStdString();
    for (const QString& variant : variants) request.variants.push_back(variant.toStdString());
    request.problem.dimensions["N"] = n;
    request.settings.repeats = 5;
    request.settings.warmup = 1;
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    if (!report) return {};
    model::RecordingOrigin options;
    options.producer = QStringLiteral("stage tests");
    return model::recordingFrom(*report, options);
}

}  // namespace fusescope::stagetest
