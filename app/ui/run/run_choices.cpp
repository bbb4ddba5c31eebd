#include "ui/run/run_choices.h"

#include <QStringList>

#include "model/element_count.h"
#include "model/pipeline_catalog.h"
#include "model/problem_options.h"
#include "model/run_limits.h"

namespace fusescope {
namespace {
const QString kGroup = QStringLiteral("run/");
// As the CLI's --device: CUDA numbers its GPUs from 0; anything larger is a damaged setting.
constexpr int kMaxCudaDeviceIndex = 1023;
}  // namespace

RunCommand loadRunChoices(const QSettings& settings) {
    RunCommand choices;
    RunRequest& request = choices.request;
    request.pipeline = settings.value(kGroup + QStringLiteral("pipeline")).toString().toStdString();
    for (const QString& variant :
         settings.value(kGroup + QStringLiteral("variants")).toStringList())
        request.variants.push_back(variant.toStdString());
    // The problem as text, checked against the pipeline's declarations: a value this build
    // refuses falls back to the pipeline's defaults.
    if (const PipelineSpec* pipeline = findPipeline(request.pipeline)) {
        model::ProblemText text;
        text.dimensions = settings.value(kGroup + QStringLiteral("dimensions")).toString();
        text.dtype = settings.value(kGroup + QStringLiteral("dtype")).toString();
        text.tuning = settings.value(kGroup + QStringLiteral("tuning")).toString();
        Result<Problem> problem = model::problemFromText(*pipeline, text);
        request.problem = problem ? *problem : pipeline->defaultProblem();
    }
    request.target.backend =
        backendChoiceFromKey(
            settings.value(kGroup + QStringLiteral("backend")).toString().toStdString())
            .value_or(BackendChoice::Auto);
    const RunSettings cpuDefaults = runDefaultsFor(BackendKind::Cpu);
    const int repeats =
        settings.value(kGroup + QStringLiteral("repeats"), cpuDefaults.repeats).toInt();
    request.settings.repeats =
        repeats >= 1 && repeats <= kMaxRepeats ? repeats : cpuDefaults.repeats;
    const int warmup =
        settings.value(kGroup + QStringLiteral("warmup"), cpuDefaults.warmup).toInt();
    request.settings.warmup = warmup >= 0 && warmup <= kMaxWarmup ? warmup : cpuDefaults.warmup;
    const int threads = settings.value(kGroup + QStringLiteral("cpuThreads"), 0).toInt();
    if (threads >= 0) request.cpuThreads = threads;
    // The GPU, by its CUDA number; whether it is still present is known only once the worker has
    // listed the GPUs (the run panel falls back then, with a note).
    bool deviceOk = false;
    const int device = settings.value(kGroup + QStringLiteral("cudaDevice")).toInt(&deviceOk);
    if (deviceOk && device >= 0 && device <= kMaxCudaDeviceIndex)
        request.target.cudaDevice = device;
    return choices;
}

void saveRunChoices(QSettings& settings, const RunCommand& choices) {
    const RunRequest& request = choices.request;
    QStringList variants;
    for (const std::string& variant : request.variants) variants << QString::fromStdString(variant);
    settings.setValue(kGroup + QStringLiteral("pipeline"),
                      QString::fromStdString(request.pipeline));
    settings.setValue(kGroup + QStringLiteral("variants"), variants);
    const model::ProblemText problem = model::problemText(request.problem);
    settings.setValue(kGroup + QStringLiteral("dimensions"), problem.dimensions);
    settings.setValue(kGroup + QStringLiteral("dtype"), problem.dtype);
    settings.setValue(kGroup + QStringLiteral("tuning"), problem.tuning);
    settings.setValue(kGroup + QStringLiteral("backend"),
                      QString::fromLatin1(backendChoiceKey(request.target.backend)));
    settings.setValue(kGroup + QStringLiteral("repeats"), request.settings.repeats);
    settings.setValue(kGroup + QStringLiteral("warmup"), request.settings.warmup);
    settings.setValue(kGroup + QStringLiteral("cpuThreads"), request.cpuThreads);
    if (request.target.cudaDevice)
        settings.setValue(kGroup + QStringLiteral("cudaDevice"), *request.target.cudaDevice);
    else
        settings.remove(kGroup + QStringLiteral("cudaDevice"));
}

}  // namespace fusescope
