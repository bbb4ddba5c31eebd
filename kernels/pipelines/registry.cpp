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
    return vectorWidthIndex(width) >= 0;
}

int vectorWidthIndex(int width) {
    for (std::size_t index = 0; index < kSupportedVectorWidths.size(); ++index)
        if (kSupportedVectorWidths[index] == width) return static_cast<int>(index);
    return -1;
}

std::string supportedVectorWidthsText() {
    std::string text;
    for (std::size_t index = 0; index < kSupportedVectorWidths.size(); ++index) {
        if (index > 0) text += index + 1 == kSupportedVectorWidths.size() ? " or " : ", ";
        text += std::to_string(kSupportedVectorWidths[index]);
    }
    return text;
}

}  // namespace fusescope
