#pragma once
// The pipeline registry: the single source of truth for the UI, the CLI, the tests, the
// benchmarks and the animation. Each family declares its pipeline in its own files
// (affine.cpp, swiglu.cpp, mlp/mlp_pipeline.cpp): its dimensions, data types, tuning
// parameters and presets; its buffers with their shapes; for every variant, the kernels it
// launches for a problem with each kernel's traffic; its inputs and its correctness check.
// Nothing above kernels/pipelines tests a pipeline's name.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cancel_token.h"
#include "core/status.h"
#include "core/uninitialised_buffer.h"
#include "pipelines/backend_kind.h"
#include "pipelines/problem.h"
#include "pipelines/tile_spec.h"

namespace fusescope {

enum class BufferRole { Input, Output, Scratch };

struct BufferSpec {
    std::string name;
    BufferRole role = BufferRole::Input;
    // The buffer's shape, by dimension name ({"N"}; {"M", "H"}); `copies` arrays of that shape
    // live in one allocation (gate and up as one 2I x H matrix).
    std::vector<std::string> extents;
    std::uint64_t copies = 1;
    // Elementwise inputs are filled with uniform random values in [low, high] (never zeros:
    // zeros hide bugs).
    float low = 0.0f;
    float high = 0.0f;

    std::uint64_t elements(const Problem& problem) const;
    std::uint64_t bytes(const Problem& problem) const;  // in the problem's dtype
};

// What one kernel moves through memory, buffer by buffer. A buffer read several times (a
// weight re-read for every output tile) is charged every time.
struct BufferTraffic {
    std::string buffer;
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
};

struct KernelTraffic {
    std::vector<BufferTraffic> buffers;
    double flops = 0.0;

    std::uint64_t bytesRead() const;
    std::uint64_t bytesWritten() const;
};

// One kernel launch (or library call) of a variant, for one problem.
struct KernelSpec {
    std::string name;       // "swiglu_fused", "gemm_gate": shown, and the NVTX range's name
    std::string execution;  // the key each backend finds the code under (kernel_execution.h)
    std::vector<std::string> args;  // buffer names, in the kernel's parameter order
    KernelTraffic traffic;
    // Where the pipeline counts passes: the whole-array sweeps in program order (a name may
    // repeat), which the memory stage animates loop by loop. Empty otherwise.
    std::vector<std::string> passReads;
    std::vector<std::string> passWrites;
    // Whether the kernel can run this problem on a backend, as CUTLASS's can_implement: the
    // reason when it cannot (a dtype the GPU code has no path for, tiles beyond the grid's
    // limit), asked before anything is allocated. Empty: it runs every problem the pipeline's
    // limits allow. Whether the code loads (a kernel compiled at run time) is the backend's to say.
    std::function<Status(const Problem&, BackendKind)> canImplement;

    int passes() const { return static_cast<int>(passReads.size() + passWrites.size()); }
};

// Kernels of two variants that do the same work: `kernel` of one variant does what `counterparts`
// of the other do together ("gemm_gate_up_silu" does the work of "gemm_gate_up" and "silu_mul").
struct KernelCounterparts {
    std::string kernel;
    std::vector<std::string> counterparts;
};

// Another variant of the pipeline that this one does the same work as in other kernels, kernel by
// kernel, so that where this one is slower its kernels' measured times can be set beside those of
// the other's kernels that do the same work. Kernels a plan does not launch for a problem (the
// decode GEMVs at prefill sizes) are left out of that problem's comparison.
struct VariantCounterparts {
    std::string variant;
    std::vector<KernelCounterparts> kernels;
};

// The kernels a variant launches for a problem (the production MLP streams weights with GEMV
// kernels at decode sizes and runs GEMMs at prefill sizes).
using KernelPlan = std::function<std::vector<KernelSpec>(const Problem&)>;

struct VariantSpec {
    std::string name;         // "scratch", used by the CLI and in recordings
    std::string title;        // "Scratch (1 kernel, 2 loops)"
    std::string description;  // one or two sentences for the UI
    bool fused = false;
    // Set where its kernel compiles at run time for any allowed tile values (the tile explorer's
    // subject): how the tiles launch and when they are refused.
    std::optional<VariantTiles> tiles;
    // The variant this one is compared against (the framework-style path a fusion must beat);
    // empty where it is compared with nothing.
    std::string baseline;
    std::vector<BufferSpec> buffers;
    KernelPlan plan;
    // What the variant computes more than once, in words with its count for a problem
    // ("g and u for each of 64 output tiles"); empty (or unset) where it computes each value once.
    std::function<std::string(const Problem&)> recomputation;
    // The variants whose kernels do this one's work in other kernels, kernel by kernel.
    std::vector<VariantCounterparts> counterparts;

    std::vector<KernelSpec> kernelsFor(const Problem& problem) const;
};

// Input makers write every byte of their buffers in parallel, asking the cancel token.
using HostBytes = UninitialisedBuffer<unsigned char>;

// Host copies of a run's buffers, by name, as raw bytes in the problem's dtype.
struct HostBuffers {
    std::vector<std::string> names;
    std::vector<HostBytes> values;  // each written in full by the pipeline's input maker

    const HostBytes* find(std::string_view name) const;
};

// The bit pattern written over outputs and scratch before a run: NaN in float32 and in
// bfloat16, so an element no kernel wrote never passes a comparison.
constexpr unsigned char kPoisonByte = 0xFF;

// One output element that fails the check: what it should hold and what the kernel wrote.
struct WrongElement {
    std::uint64_t index = 0;
    double expected = 0.0;
    double got = 0.0;
    bool unwritten = false;  // still the poison: no thread wrote it
};

struct CheckResult {
    // The error measure the pipeline checks by, and its value over every output: the maximum
    // relative error per element (elementwise) or the relative Frobenius error over compared
    // rows (MLP).
    std::string measure = "max relative error";
    double error = 0.0;
    double tolerance = 0.0;
    std::uint64_t unwrittenElements = 0;  // outputs still holding the poison
    // Elements compared against the reference: all of them, or a sample of large outputs.
    std::uint64_t comparedElements = 0;
    bool ok = false;
    // Where a failed elementwise check is wrong: the first output that fails, and its worst
    // element there (or one never written). Empty `wrongOutput` where the check passed or the
    // pipeline does not say.
    std::string wrongOutput;
    WrongElement wrongElement;
};

// A large library GEMM the runner times beside the copy roofline: the compute roof of pipelines
// that do arithmetic (the MLP), measured in the same run.
struct ComputeRoofSpec {
    std::string execution;  // the catalog key of the GEMM (backends without it skip the roof)
    Problem problem;        // what the execution reads: the GEMM's size and dtype
    std::vector<std::uint64_t> bufferBytes;  // its operands and result, in order
    double flops = 0.0;
    std::string description;  // "cuBLAS bfloat16 GEMM 8192 x 8192 x 8192"
};

// Fills a run's inputs (the inputs of every selected variant, each once). Stops early, the values
// incomplete, once `cancel` is set (the runner then discards them).
using InputMaker =
    std::function<HostBuffers(const Problem& problem, const std::vector<const BufferSpec*>& inputs,
                              std::uint32_t seed, const CancelToken& cancel)>;
// Compares a variant's outputs (every buffer of role Output it allocates, by name, in the
// problem's dtype) against the pipeline's reference in double. A long reference asks `cancel`
// per block of work; the runner discards the result once it is set.
using OutputCheck =
    std::function<CheckResult(const Problem& problem, const HostBuffers& inputs,
                              const HostBuffers& outputs, const CancelToken& cancel)>;
// Constraints between dimensions, dtype and tuning that limits alone cannot say.
using ProblemCheck = std::function<Status(const Problem& problem)>;

struct PipelineSpec {
    std::string name;     // "swiglu"
    std::string title;    // "SwiGLU activation"
    std::string formula;  // "out = silu(gate) * up"
    std::string description;
    std::string intermediate;  // the value that fusion keeps on chip ("tmp", "scratch")
    // The variant that reads every input once, which the tile explorer measures re-reads
    // against ("production"); empty where there is none.
    std::string leanestVariant;

    std::vector<DimensionSpec> dimensions;
    std::vector<DType> dtypes;  // the first is the default
    std::vector<TuningSpec> tunings;
    std::vector<PresetSpec> presets;
    std::string sizeDimension;  // the dimension a size sweep varies ("N", "M")
    // True where every kernel sweeps whole arrays, so traffic counts as passes (the elementwise
    // lessons); otherwise views count bytes.
    bool countsPasses = false;

    std::vector<VariantSpec> variants;
    InputMaker makeInputs;
    OutputCheck check;
    // Elementwise pipelines: the first output element that is unwritten or off the reference,
    // so that a kernel the program did not write (the Lab's) is told where it is wrong and what
    // the element should hold. Empty elsewhere.
    std::function<std::optional<WrongElement>(const Problem& problem, const HostBuffers& inputs,
                                              const void* output)>
        firstWrongElement;
    ProblemCheck checkProblem;  // may be empty
    // Bytes the copy roofline copies for this problem.
    std::function<std::uint64_t(const Problem&)> rooflineBytes;
    // The compute roof for this problem's dtype; empty (or nullopt) where none is measured.
    std::function<std::optional<ComputeRoofSpec>(const Problem&)> computeRoof;

    Problem defaultProblem() const;
    const DimensionSpec* findDimension(std::string_view name) const;
    const TuningSpec* findTuning(std::string_view name) const;
    const PresetSpec* findPreset(std::string_view name) const;
};

// The registered families at one moment: the built-in ones, then those registered while the
// program runs (runtime_registry.h), in registration order. It holds addresses, which stay valid
// for the life of the program, so it may be kept and iterated while others register.
class PipelineList {
  public:
    class const_iterator {
      public:
        using value_type = PipelineSpec;
        using difference_type = std::ptrdiff_t;
        using iterator_category = std::forward_iterator_tag;
        using pointer = const PipelineSpec*;
        using reference = const PipelineSpec&;

        const_iterator() = default;
        explicit const_iterator(std::vector<const PipelineSpec*>::const_iterator at) : at_(at) {}
        reference operator*() const { return **at_; }
        pointer operator->() const { return *at_; }
        const_iterator& operator++() {
            ++at_;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator before = *this;
            ++at_;
            return before;
        }
        bool operator==(const const_iterator&) const = default;

      private:
        std::vector<const PipelineSpec*>::const_iterator at_;
    };

    explicit PipelineList(std::vector<const PipelineSpec*> specs) : specs_(std::move(specs)) {}
    const_iterator begin() const { return const_iterator(specs_.begin()); }
    const_iterator end() const { return const_iterator(specs_.end()); }
    std::size_t size() const { return specs_.size(); }
    bool empty() const { return specs_.empty(); }
    const PipelineSpec& front() const { return *specs_.front(); }
    const PipelineSpec& operator[](std::size_t index) const { return *specs_[index]; }

  private:
    std::vector<const PipelineSpec*> specs_;
};

PipelineList pipelines();
// Built-in or registered at run time; null when no family of that name is registered now.
const PipelineSpec* findPipeline(std::string_view name);
const VariantSpec* findVariant(const PipelineSpec& pipeline, std::string_view name);
const BufferSpec* findBuffer(const VariantSpec& variant, std::string_view name);
// The variant `variant` declares as its baseline; nullptr where it declares none.
const VariantSpec* baselineOf(const PipelineSpec& pipeline, const VariantSpec& variant);
// The variants whose kernels compile at run time for chosen tiles, in registry order.
std::vector<std::pair<const PipelineSpec*, const VariantSpec*>> tunableVariants();

// Checks every value of a problem against the pipeline's declarations (names, limits, allowed
// values, dtypes, the pipeline's own constraints), with the reason in words.
Status checkProblem(const PipelineSpec& pipeline, const Problem& problem);
// The problem with every dimension and tuning parameter it leaves out set to the pipeline's
// default (the values it gives are kept, and checked later).
Problem withDefaults(const PipelineSpec& pipeline, const Problem& problem);
// The same for the tuning parameters alone.
Problem withDefaultTunings(const PipelineSpec& pipeline, const Problem& problem);
// The tuning parameters a recording or sweep leaves out, as it ran them: one written before a
// parameter was declared ran with the value of that time (its dimensions are its own and are
// not completed).
Problem withRecordedTunings(const PipelineSpec& pipeline, const Problem& problem);
// A preset applied to a problem: its dimensions and, when it has one, its dtype.
Problem withPreset(const Problem& problem, const PresetSpec& preset);
// The tuning parameters the named variants' kernels take for this problem (TuningSpec::usedBy),
// in declaration order; with no variant named, those of every variant (a run of them all).
std::vector<const TuningSpec*> tuningsUsed(const PipelineSpec& pipeline, const Problem& problem,
                                           const std::vector<std::string>& variants);
// A tuning parameter as a caption names it: its title and its value, or values ("32 / 64").
struct TuningText {
    std::string title;
    std::string value;
    bool oneValue = true;
};
// "BLOCK_M/N/H/I": the prefix up to the first title's '_' said once for every later title that
// shares it; a title that does not stands whole.
std::string titlesSharingPrefix(const std::vector<std::string>& titles);
// Tuning parameters joined by " · ", a run of titles sharing the first's prefix and each with one
// value said together: "BLOCK_M/N/H/I 32/64/64/64 · vector 4" (narrow captions keep the tiles).
std::string tuningsText(const std::vector<TuningText>& tunings);
// "N = 16,777,216 · float32 · vector 4", for captions and messages: the tuning parameters the
// named variants use, and no other (the cuBLAS variants show no tiles).
std::string describeProblem(const PipelineSpec& pipeline, const Problem& problem,
                            const std::vector<std::string>& variants);

// The elementwise pipelines' size and tuning (affine, swiglu): N float32 elements, vector width.
inline constexpr std::string_view kElementCountDimension = "N";
inline constexpr std::string_view kVectorWidthTuning = "vector";
// The vector widths every elementwise variant supports, ascending (1: scalar, 4: 16-byte loads
// + scalar tail). Everything that offers, checks or tabulates widths derives from this list.
inline constexpr std::array<int, 2> kSupportedVectorWidths = {1, 4};
inline constexpr int kDefaultVectorWidth = 4;

bool isSupportedVectorWidth(int width);
// The position of a supported width in kSupportedVectorWidths; -1 for any other width.
int vectorWidthIndex(int width);
// "1 or 4", for help texts and error messages.
std::string supportedVectorWidthsText();
// Allowed values in words: "16, 32, 64 or 128".
std::string allowedText(std::span<const int> allowed);

}  // namespace fusescope
