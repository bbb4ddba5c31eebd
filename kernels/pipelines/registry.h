#pragma once
// The pipeline registry: the single source of truth for the UI, the CLI, the tests, the
// benchmarks and the animation. Each family (affine.cpp, swiglu.cpp) declares its variants here.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/kernel_id.h"

namespace fusescope {

constexpr std::uint64_t kElementBytes = sizeof(float);  // every pipeline is float32 for now

enum class BufferRole { Input, Output, Scratch };

struct BufferSpec {
    std::string name;
    BufferRole role = BufferRole::Input;
    // Inputs are filled with uniform random values in [low, high] (never zeros: zeros hide bugs).
    float low = 0.0f;
    float high = 0.0f;
};

// One kernel launch of a variant. `args` are buffer names in the kernel's parameter order;
// `reads` and `writes` are the full sweeps the pass model charges to it (a name may repeat).
struct KernelSpec {
    KernelId id;
    std::string name;
    std::vector<std::string> args;
    std::vector<std::string> reads;
    std::vector<std::string> writes;
};

struct VariantSpec {
    std::string name;         // "scratch", used by the CLI and in recordings
    std::string title;        // "Scratch (1 kernel, 2 loops)"
    std::string description;  // one or two sentences for the UI
    bool fused = false;
    std::vector<BufferSpec> buffers;
    std::vector<KernelSpec> kernels;
};

// The value an output element must have, computed in double from the inputs at index i.
// `inputs` holds the variant's input buffers in the order they are declared.
using ElementReference = double (*)(const float* const* inputs, std::uint64_t i);

struct PipelineSpec {
    std::string name;     // "swiglu"
    std::string title;    // "SwiGLU activation"
    std::string formula;  // "out = silu(gate) * up"
    std::string description;
    std::string intermediate;  // the value that fusion keeps in registers ("tmp", "scratch")
    std::vector<VariantSpec> variants;
    ElementReference reference = nullptr;
};

const std::vector<PipelineSpec>& pipelines();
const PipelineSpec* findPipeline(std::string_view name);
const VariantSpec* findVariant(const PipelineSpec& pipeline, std::string_view name);
const BufferSpec* findBuffer(const VariantSpec& variant, std::string_view name);

// The vector widths every elementwise variant supports, ascending (1: scalar, 4: 16-byte loads
// + scalar tail). Everything that offers, checks or tabulates widths derives from this list.
inline constexpr std::array<int, 2> kSupportedVectorWidths = {1, 4};
inline constexpr int kDefaultVectorWidth = 4;

bool isSupportedVectorWidth(int width);
// The position of a supported width in kSupportedVectorWidths; -1 for any other width.
int vectorWidthIndex(int width);
// "1 or 4", for help texts and error messages.
std::string supportedVectorWidthsText();

}  // namespace fusescope
