#include "ui/run_choices.h"

#include "model/element_count.h"
#include "pipelines/registry.h"
#include "runtime/runner.h"

namespace fusescope {
namespace {
const QString kGroup = QStringLiteral("run/");
}

RunChoices loadRunChoices(const QSettings& settings) {
    RunChoices choices;
    choices.pipeline = settings.value(kGroup + QStringLiteral("pipeline")).toString();
    choices.variants = settings.value(kGroup + QStringLiteral("variants")).toStringList();
    const std::optional<quint64> n =
        model::elementCountValue(settings.value(kGroup + QStringLiteral("n")).toString());
    if (n) choices.n = *n;
    const int vector =
        settings.value(kGroup + QStringLiteral("vector"), choices.vectorWidth).toInt();
    if (isSupportedVectorWidth(vector)) choices.vectorWidth = vector;
    choices.backend = backendChoiceFromKey(
        settings.value(kGroup + QStringLiteral("backend"), QStringLiteral("auto")).toString());
    const int repeats = settings.value(kGroup + QStringLiteral("repeats"), choices.repeats).toInt();
    if (repeats >= 1 && repeats <= kMaxRepeats) choices.repeats = repeats;
    const int warmup = settings.value(kGroup + QStringLiteral("warmup"), choices.warmup).toInt();
    if (warmup >= 0 && warmup <= kMaxWarmup) choices.warmup = warmup;
    const int threads = settings.value(kGroup + QStringLiteral("cpuThreads"), 0).toInt();
    if (threads >= 0) choices.cpuThreads = threads;
    return choices;
}

void saveRunChoices(QSettings& settings, const RunChoices& choices) {
    settings.setValue(kGroup + QStringLiteral("pipeline"), choices.pipeline);
    settings.setValue(kGroup + QStringLiteral("variants"), choices.variants);
    settings.setValue(kGroup + QStringLiteral("n"), QString::number(choices.n));
    settings.setValue(kGroup + QStringLiteral("vector"), choices.vectorWidth);
    settings.setValue(kGroup + QStringLiteral("backend"), backendChoiceKey(choices.backend));
    settings.setValue(kGroup + QStringLiteral("repeats"), choices.repeats);
    settings.setValue(kGroup + QStringLiteral("warmup"), choices.warmup);
    settings.setValue(kGroup + QStringLiteral("cpuThreads"), choices.cpuThreads);
}

}  // namespace fusescope
