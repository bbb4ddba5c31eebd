#include "pipelines/registry.h"

#include "pipelines/families.h"

namespace fusescope {

const std::vector<PipelineSpec>& pipelines() {
    static const std::vector<PipelineSpec> all = {makeAffinePipeline(), makeSwigluPipeline()};
    return all;
}

const PipelineSpec* findPipeline(std::string_view name) {
    for (const auto& pipeline : pipelines())
        if (pipeline.name == name) return &pipeline;
    return nullptr;
}

const VariantSpec* findVariant(const PipelineSpec& pipeline, std::string_view name) {
    for (const auto& variant : pipeline.variants)
        if (variant.name == name) return &variant;
    return nullptr;
}

const BufferSpec* findBuffer(const VariantSpec& variant, std::string_view name) {
    for (const auto& buffer : variant.buffers)
        if (buffer.name == name) return &buffer;
    return nullptr;
}

bool isSupportedVectorWidth(int width) {
    return width == 1 || width == 4;
}

}  // namespace fusescope
