#pragma once
// What one run computes: the values of a pipeline's dimensions, its data type and its tuning
// parameters. Each pipeline declares which of these exist, with defaults and limits
// (registry.h); a Problem holds the values chosen for one run and travels unchanged from the
// run panel or the CLI to the kernels and into recordings.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pipelines/dtype.h"

namespace fusescope {

struct DimensionSpec {
    std::string name;   // "N", "M": the CLI option and the recording's key
    std::string title;  // "tokens (rows of x)"
    std::uint64_t defaultValue = 1;
    std::uint64_t minimum = 1;
    std::uint64_t maximum = 1;
};

struct Problem;

struct TuningSpec {
    std::string name;   // "vector", "block_m"
    std::string title;  // "vector width", "BLOCK_M"
    std::string help;
    std::vector<int> allowed;  // ascending
    int defaultValue = 0;
    // What a recording made before this parameter was declared ran with, where the default has
    // changed since; 0: the default.
    int valueBeforeDeclared = 0;
    // The variant whose kernel takes this parameter ("lesson_fused"); empty: every variant.
    std::string variant;

    // The problems for which that kernel takes it, where not every problem's does (the
    // production fusion's tiles at prefill sizes: its decode kernels have none); empty: all.
    std::function<bool(const Problem&)> usedFor;

    bool appliesTo(std::string_view variantName) const {
        return variant.empty() || variant == variantName;
    }
    // Whether the variant's kernels take this parameter for this problem: what captions show.
    bool usedBy(std::string_view variantName, const Problem& problem) const;
};

struct PresetSpec {
    std::string name;   // "classroom"
    std::string title;  // "classroom: M=512, H=1024, I=2816"
    std::vector<std::pair<std::string, std::uint64_t>> dimensions;
    std::optional<DType> dtype;  // the preset's data type, when it has one
};

struct Problem {
    std::map<std::string, std::uint64_t, std::less<>> dimensions;
    DType dtype = DType::Float32;
    std::map<std::string, int, std::less<>> tuning;

    // 0 when the problem has no such dimension or parameter.
    std::uint64_t dimension(std::string_view name) const;
    int tuningValue(std::string_view name) const;

    friend bool operator==(const Problem&, const Problem&) = default;
};

}  // namespace fusescope
