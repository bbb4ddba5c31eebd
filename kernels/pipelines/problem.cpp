#include "pipelines/problem.h"

namespace fusescope {

std::string_view dtypeName(DType dtype) {
    return dtype == DType::Bfloat16 ? "bfloat16" : "float32";
}

std::size_t dtypeBytes(DType dtype) {
    return dtype == DType::Bfloat16 ? 2 : 4;
}

std::optional<DType> parseDType(std::string_view text) {
    if (text == "float32" || text == "fp32" || text == "f32") return DType::Float32;
    if (text == "bfloat16" || text == "bf16") return DType::Bfloat16;
    return std::nullopt;
}

std::uint64_t Problem::dimension(std::string_view name) const {
    const auto found = dimensions.find(name);
    return found == dimensions.end() ? 0 : found->second;
}

int Problem::tuningValue(std::string_view name) const {
    const auto found = tuning.find(name);
    return found == tuning.end() ? 0 : found->second;
}

bool TuningSpec::usedBy(std::string_view variantName, const Problem& problem) const {
    return appliesTo(variantName) && (!usedFor || usedFor(problem));
}

}  // namespace fusescope
