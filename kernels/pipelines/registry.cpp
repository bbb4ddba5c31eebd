#include "pipelines/registry.h"

#include <limits>

namespace fusescope {
namespace {

std::string groupedDigits(std::uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) grouped.push_back(',');
        grouped.push_back(digits[i]);
    }
    return grouped;
}

// Sizes saturate at the largest 64-bit value instead of wrapping, so that an absurd problem is
// refused as too large for memory, never taken for a small one.
std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<std::uint64_t>::max()
                                                  : product;
}

Status invalid(std::string message) {
    return Status(ErrorCode::InvalidArgument, std::move(message));
}

}  // namespace

std::uint64_t BufferSpec::elements(const Problem& problem) const {
    std::uint64_t count = copies;
    for (const auto& extent : extents) count = saturatingProduct(count, problem.dimension(extent));
    return count;
}

std::uint64_t BufferSpec::bytes(const Problem& problem) const {
    return saturatingProduct(elements(problem), dtypeBytes(problem.dtype));
}

std::uint64_t KernelTraffic::bytesRead() const {
    std::uint64_t total = 0;
    for (const auto& buffer : buffers) total += buffer.bytesRead;
    return total;
}

std::uint64_t KernelTraffic::bytesWritten() const {
    std::uint64_t total = 0;
    for (const auto& buffer : buffers) total += buffer.bytesWritten;
    return total;
}

std::vector<KernelSpec> VariantSpec::kernelsFor(const Problem& problem) const {
    return plan ? plan(problem) : std::vector<KernelSpec>{};
}

const HostBytes* HostBuffers::find(std::string_view name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return &values[i];
    return nullptr;
}

Problem PipelineSpec::defaultProblem() const {
    Problem problem;
    for (const auto& dimension : dimensions)
        problem.dimensions[dimension.name] = dimension.defaultValue;
    if (!dtypes.empty()) problem.dtype = dtypes.front();
    for (const auto& tuning : tunings) problem.tuning[tuning.name] = tuning.defaultValue;
    return problem;
}

const DimensionSpec* PipelineSpec::findDimension(std::string_view wanted) const {
    for (const auto& dimension : dimensions)
        if (dimension.name == wanted) return &dimension;
    return nullptr;
}

const TuningSpec* PipelineSpec::findTuning(std::string_view wanted) const {
    for (const auto& tuning : tunings)
        if (tuning.name == wanted) return &tuning;
    return nullptr;
}

const PresetSpec* PipelineSpec::findPreset(std::string_view wanted) const {
    for (const auto& preset : presets)
        if (preset.name == wanted) return &preset;
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

const VariantSpec* baselineOf(const PipelineSpec& pipeline, const VariantSpec& variant) {
    return variant.baseline.empty() ? nullptr : findVariant(pipeline, variant.baseline);
}

std::vector<std::pair<const PipelineSpec*, const VariantSpec*>> tunableVariants() {
    std::vector<std::pair<const PipelineSpec*, const VariantSpec*>> found;
    for (const PipelineSpec& pipeline : pipelines())
        for (const VariantSpec& variant : pipeline.variants)
            if (variant.tiles) found.emplace_back(&pipeline, &variant);
    return found;
}

Status checkProblem(const PipelineSpec& pipeline, const Problem& problem) {
    for (const auto& [name, value] : problem.dimensions)
        if (!pipeline.findDimension(name))
            return invalid("pipeline '" + pipeline.name + "' has no dimension " + name);
    for (const auto& dimension : pipeline.dimensions) {
        const auto found = problem.dimensions.find(dimension.name);
        if (found == problem.dimensions.end())
            return invalid(dimension.name + " (" + dimension.title + ") is missing");
        if (found->second < dimension.minimum || found->second > dimension.maximum)
            return invalid(dimension.name + " = " + groupedDigits(found->second) + " is outside " +
                           groupedDigits(dimension.minimum) + " to " +
                           groupedDigits(dimension.maximum));
    }
    bool dtypeAllowed = false;
    std::string dtypes;
    for (DType dtype : pipeline.dtypes) {
        dtypeAllowed = dtypeAllowed || dtype == problem.dtype;
        dtypes += (dtypes.empty() ? "" : ", ") + std::string(dtypeName(dtype));
    }
    if (!dtypeAllowed)
        return invalid("pipeline '" + pipeline.name + "' runs in " + dtypes + ", not " +
                       std::string(dtypeName(problem.dtype)));
    for (const auto& [name, value] : problem.tuning)
        if (!pipeline.findTuning(name))
            return invalid("pipeline '" + pipeline.name + "' has no tuning parameter " + name);
    for (const auto& tuning : pipeline.tunings) {
        const auto found = problem.tuning.find(tuning.name);
        if (found == problem.tuning.end()) return invalid(tuning.title + " is missing");
        bool allowed = false;
        for (int value : tuning.allowed) allowed = allowed || value == found->second;
        if (!allowed)
            return invalid(tuning.title + " " + std::to_string(found->second) + " is not " +
                           allowedText(tuning.allowed));
    }
    if (pipeline.checkProblem) return pipeline.checkProblem(problem);
    return Status::ok();
}

Problem withDefaults(const PipelineSpec& pipeline, const Problem& problem) {
    Problem result = withDefaultTunings(pipeline, problem);
    for (const auto& dimension : pipeline.dimensions)
        result.dimensions.try_emplace(dimension.name, dimension.defaultValue);
    return result;
}

Problem withDefaultTunings(const PipelineSpec& pipeline, const Problem& problem) {
    Problem result = problem;
    for (const auto& tuning : pipeline.tunings)
        result.tuning.try_emplace(tuning.name, tuning.defaultValue);
    return result;
}

Problem withRecordedTunings(const PipelineSpec& pipeline, const Problem& problem) {
    Problem result = problem;
    for (const auto& tuning : pipeline.tunings)
        result.tuning.try_emplace(tuning.name, tuning.valueBeforeDeclared != 0
                                                   ? tuning.valueBeforeDeclared
                                                   : tuning.defaultValue);
    return result;
}

Problem withPreset(const Problem& problem, const PresetSpec& preset) {
    Problem result = problem;
    for (const auto& [name, value] : preset.dimensions) result.dimensions[name] = value;
    if (preset.dtype) result.dtype = *preset.dtype;
    return result;
}

std::vector<const TuningSpec*> tuningsUsed(const PipelineSpec& pipeline, const Problem& problem,
                                           const std::vector<std::string>& variants) {
    std::vector<const TuningSpec*> used;
    for (const auto& tuning : pipeline.tunings) {
        bool uses = false;
        if (variants.empty())
            for (const auto& variant : pipeline.variants)
                uses = uses || tuning.usedBy(variant.name, problem);
        for (const auto& variant : variants) uses = uses || tuning.usedBy(variant, problem);
        if (uses) used.push_back(&tuning);
    }
    return used;
}

namespace {

// "BLOCK_" of "BLOCK_M"; empty where the title has no '_' to end a prefix at.
std::string titlePrefix(const std::string& title) {
    const std::size_t underscore = title.find('_');
    return underscore == std::string::npos ? std::string() : title.substr(0, underscore + 1);
}

bool sharesPrefix(const std::string& title, const std::string& prefix) {
    return !prefix.empty() && title.size() > prefix.size() && title.starts_with(prefix);
}

}  // namespace

std::string titlesSharingPrefix(const std::vector<std::string>& titles) {
    std::string text;
    const std::string prefix = titles.empty() ? std::string() : titlePrefix(titles.front());
    for (std::size_t index = 0; index < titles.size(); ++index) {
        const std::string& title = titles[index];
        if (index > 0) text += '/';
        text += index > 0 && sharesPrefix(title, prefix) ? title.substr(prefix.size()) : title;
    }
    return text;
}

std::string tuningsText(const std::vector<TuningText>& tunings) {
    std::string text;
    for (std::size_t first = 0; first < tunings.size();) {
        const std::string prefix = tunings[first].oneValue ? titlePrefix(tunings[first].title) : "";
        std::size_t end = first + 1;
        while (end < tunings.size() && tunings[end].oneValue &&
               sharesPrefix(tunings[end].title, prefix))
            ++end;
        std::vector<std::string> titles;
        std::string values;
        for (std::size_t index = first; index < end; ++index) {
            titles.push_back(tunings[index].title);
            values += (index > first ? "/" : "") + tunings[index].value;
        }
        text += (text.empty() ? "" : " · ") + titlesSharingPrefix(titles) + " " + values;
        first = end;
    }
    return text;
}

std::string describeProblem(const PipelineSpec& pipeline, const Problem& problem,
                            const std::vector<std::string>& variants) {
    std::string text;
    for (const auto& dimension : pipeline.dimensions)
        text += (text.empty() ? "" : ", ") + dimension.name + " = " +
                groupedDigits(problem.dimension(dimension.name));
    text += " · " + std::string(dtypeTitle(problem.dtype));
    std::vector<TuningText> tunings;
    for (const TuningSpec* tuning : tuningsUsed(pipeline, problem, variants))
        tunings.push_back({tuning->title, std::to_string(problem.tuningValue(tuning->name))});
    if (!tunings.empty()) text += " · " + tuningsText(tunings);
    return text;
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
    return allowedText(kSupportedVectorWidths);
}

std::string allowedText(std::span<const int> allowed) {
    std::string text;
    for (std::size_t i = 0; i < allowed.size(); ++i) {
        if (i > 0) text += i + 1 == allowed.size() ? " or " : ", ";
        text += std::to_string(allowed[i]);
    }
    return text;
}

}  // namespace fusescope
