#include "pipelines/problem.h"

namespace fusescope {

std::string_view dtypeName(DType dtype) {
    switch (dtype) {
        case DType::Bfloat16:
            return "bfloat16";
        case DType::Tf32:
            return "tf32";
        case DType::Float32:
            break;
    }
    return "float32";
}

std::string_view dtypeTitle(DType dtype) {
    return dtype == DType::Tf32 ? "float32 (TF32 math)" : dtypeName(dtype);
}

std::size_t dtypeBytes(DType dtype) {
    return dtype == DType::Bfloat16 ? 2 : 4;
}

std::optional<DType> parseDType(std::string_view text) {
    if (text == "float32" || text == "fp32" || text == "f32") return DType::Float32;
    if (text == "bfloat16" || text == "bf16") return DType::Bfloat16;
    if (text == "tf32") return DType::Tf32;
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
