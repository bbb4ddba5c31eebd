#include "cli/help_examples.h"

#include <QStringList>

#include "pipelines/registry.h"

namespace fusescope::cli {
namespace {

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

// The elementwise pipeline with the most variants (the one with the most to compare).
const PipelineSpec* elementwisePipeline() {
    const PipelineSpec* chosen = nullptr;
    for (const PipelineSpec& pipeline : pipelines())
        if (pipeline.countsPasses && pipeline.variants.size() > 1 &&
            (!chosen || pipeline.variants.size() > chosen->variants.size()))
            chosen = &pipeline;
    return chosen;
}

// "--pipeline P --variants first,last", or "--pipeline P --variants last,first".
QString pipelineAndVariants(const PipelineSpec& pipeline, bool lastFirst) {
    QStringList variants{text(pipeline.variants.front().name), text(pipeline.variants.back().name)};
    if (lastFirst) variants = {variants[1], variants[0]};
    return QStringLiteral("--pipeline %1 --variants %2")
        .arg(text(pipeline.name), variants.join(QLatin1Char(',')));
}

}  // namespace

QString elementwiseRunExample() {
    const PipelineSpec* pipeline = elementwisePipeline();
    if (!pipeline) return {};
    return QStringLiteral(
               "fusescope-cli run %1 --n 67108864 \\\n"
               "      --repeat 20 --vector 4 --backend auto --json out.json")
        .arg(pipelineAndVariants(*pipeline, false));
}

QString presetRunExamples() {
    for (const PipelineSpec& pipeline : pipelines()) {
        if (pipeline.presets.size() < 2) continue;
        QStringList shape;
        for (const auto& [name, value] : pipeline.presets.back().dimensions)
            shape << QStringLiteral("%1=%2").arg(text(name)).arg(value);
        return QStringLiteral(
                   "fusescope-cli run --pipeline %1 --preset %2 --backend cuda\n"
                   "  fusescope-cli run --pipeline %1 --shape %3 --backend cpu")
            .arg(text(pipeline.name), text(pipeline.presets.front().name),
                 shape.join(QLatin1Char(',')));
    }
    return {};
}

QString sweepExample() {
    const PipelineSpec* pipeline = elementwisePipeline();
    if (!pipeline) return {};
    return QStringLiteral(
               "fusescope-cli sweep %1 --from 4096 \\\n"
               "      --to 268435456 --steps-per-octave 1 --vector 4 --backend auto "
               "--json sweep.json")
        .arg(pipelineAndVariants(*pipeline, true));
}

}  // namespace fusescope::cli
