#include "model/tile_choices.h"

#include "pipelines/registry.h"
#include "tiles/tile_model.h"

namespace fusescope::model {

std::vector<KnownGpu> knownGpus() {
    std::vector<KnownGpu> gpus;
    for (const std::string& key : tiles::knownGpuKeys()) {
        // Only the name is read here, and it is the same for every dtype.
        const std::optional<tiles::DeviceLimits> limits =
            tiles::knownGpuLimits(key, DType::Bfloat16);
        gpus.push_back(
            {QString::fromStdString(key), QString::fromStdString(limits ? limits->name : key)});
    }
    return gpus;
}

std::optional<tiles::DeviceLimits> knownGpuLimits(const QString& key, DType dtype) {
    return tiles::knownGpuLimits(key.toStdString(), dtype);
}

tiles::ResourceReport modelReport(const tiles::TileConfiguration& configuration,
                                  const tiles::DeviceLimits& limits) {
    return tiles::modelReport(configuration, limits);
}

std::vector<const TuningSpec*> variantTunings(const tiles::TileConfiguration& configuration) {
    std::vector<const TuningSpec*> tunings;
    if (const PipelineSpec* pipeline = findPipeline(configuration.pipeline))
        for (const TuningSpec& tuning : pipeline->tunings)
            if (tuning.appliesTo(configuration.variant)) tunings.push_back(&tuning);
    return tunings;
}

QString tilesText(const tiles::TileConfiguration& configuration) {
    return QString::fromStdString(tiles::tilesText(configuration));
}

void describeCells(tiles::TileSweep& sweep) {
    tiles::describeCells(sweep);
}

}  // namespace fusescope::model
