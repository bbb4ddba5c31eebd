#include "pipelines/problem.h"

namespace fusescope {

namespace {

// A dtype's name, then the other words the command line and the files take for it.
struct DTypeWords {
    DType dtype;
    std::string_view name;
    std::string_view aliases[2];
};
constexpr DTypeWords kDTypeWords[] = {{DType::Float32, "float32", {"fp32", "f32"}},
                                      {DType::Bfloat16, "bfloat16", {"bf16"}},
                                      {DType::Tf32, "tf32", {}}};

}  // namespace

std::string_view dtypeName(DType dtype) {
    for (const DTypeWords& words : kDTypeWords)
        if (words.dtype == dtype) return words.name;
    return "float32";
}

std::string_view dtypeTitle(DType dtype) {
    return dtype == DType::Tf32 ? "float32 (TF32 math)" : dtypeName(dtype);
}

std::size_t dtypeBytes(DType dtype) {
    return dtype == DType::Bfloat16 ? 2 : 4;
}

std::optional<DType> parseDType(std::string_view text) {
    for (const DTypeWords& words : kDTypeWords) {
        if (text == words.name) return words.dtype;
        for (std::string_view alias : words.aliases)
            if (!alias.empty() && text == alias) return words.dtype;
    }
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
