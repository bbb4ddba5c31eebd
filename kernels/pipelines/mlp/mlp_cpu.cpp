// Every MLP kernel on the CPU, multithreaded: the same work as the kernel's GPU code, the same
// intermediates in memory and the same rounding to the storage type, in float32 arithmetic.
// Slower than the GPU, but a second implementation that the reference checks.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/uninitialised_buffer.h"
#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/mlp/mlp_host_data.h"
#include "platform/parallel.h"

namespace fusescope::mlp {
namespace {

// Each written in full by a parallel loop before it is read (or dropped once cancelled).
using Floats = UninitialisedBuffer<float>;

float silu(float g) {
    return g / (1.0f + std::exp(-g));
}

// Work units (parallel.h) of one SiLU: an exponential and a division.
constexpr std::uint64_t kSiluWork = 16;

// `count` stored values from `data` as floats.
Floats load(const void* data, std::size_t count, DType dtype, int threads,
            const CancelToken& cancel) {
    Floats values(count);
    parallelFor(count, threads, cancel, 1, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i)
            values[i] = storesBfloat16(dtype)
                            ? fromBfloat16(static_cast<const std::uint16_t*>(data)[i])
                            : static_cast<const float*>(data)[i];
    });
    return values;
}

// Stores floats into `data`, rounded to the storage type.
void store(void* data, const Floats& values, DType dtype, int threads, const CancelToken& cancel) {
    parallelFor(values.size(), threads, cancel, 1, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) {
            if (storesBfloat16(dtype))
                static_cast<std::uint16_t*>(data)[i] = toBfloat16(values[i]);
            else
                static_cast<float*>(data)[i] = values[i];
        }
    });
}

// The values as a product's operands: rounded to TF32 for tf32 (to nearest, as cvt.rna does on
// the GPU; the lesson kernel there, as Triton's tl.dot, lets the tensor cores drop the low bits
// instead, within the same tolerance), unchanged otherwise.
Floats operands(Floats values, DType dtype, int threads, const CancelToken& cancel) {
    if (dtype != DType::Tf32) return values;
    parallelFor(values.size(), threads, cancel, 1, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) values[i] = roundToTf32(values[i]);
    });
    return values;
}

// C (rows x N) = A (rows x K) * B (N x K)^T, float accumulation, each product rounded to `keep`.
// A and B are the operands as multiplied (see operands()). Stops early when cancelled.
Floats productABt(const float* a, std::int64_t rows, const float* b, std::int64_t N, std::int64_t K,
                  DType keep, int threads, const CancelToken& cancel) {
    Floats c(static_cast<std::size_t>(rows * N));
    const auto perElement = static_cast<std::uint64_t>(K);
    parallelFor(c.size(), threads, cancel, perElement, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t j = begin; j < end; ++j) {
            const float* ar = a + static_cast<std::int64_t>(j) / N * K;
            const float* br = b + static_cast<std::int64_t>(j) % N * K;
            float sum = 0;
            for (std::int64_t k = 0; k < K; ++k) sum += ar[k] * br[k];
            c[j] = roundToStorage(sum, keep);
        }
    });
    return c;
}

class Stages {
  public:
    Stages(const MlpShape& s, DType dtype, const MlpCallBuffers& b, int threads,
           const CancelToken& cancel)
        : s_(s), dtype_(dtype), b_(b), threads_(threads), cancel_(cancel) {}

    // x and the weights as the products take them (TF32-rounded for tf32).
    Floats x() const {
        return operands(load(b_.x, count(s_.M * s_.H), dtype_, threads_, cancel_), dtype_, threads_,
                        cancel_);
    }
    Floats gateUp() const {
        return operands(load(b_.gate, count(2 * s_.I * s_.H), dtype_, threads_, cancel_), dtype_,
                        threads_, cancel_);
    }
    Floats downWeights() const {
        return operands(load(b_.down, count(s_.H * s_.I), dtype_, threads_, cancel_), dtype_,
                        threads_, cancel_);
    }

    // One of the two projections, rounded to the storage type, into `target` (M x I).
    void projection(bool up, void* target) const {
        const Floats w = gateUp();
        const float* rows = w.data() + (up ? s_.I * s_.H : 0);
        store(target, productABt(x().data(), s_.M, rows, s_.I, s_.H, dtype_, threads_, cancel_),
              dtype_, threads_, cancel_);
    }

    void siluInPlace(void* g) const {
        Floats values = load(g, count(s_.M * s_.I), dtype_, threads_, cancel_);
        each(values.size(), kSiluWork, [&](std::uint64_t j) { values[j] = silu(values[j]); });
        store(g, values, dtype_, threads_, cancel_);
    }

    void multiply(const void* a, const void* b, void* out) const {
        const Floats left = load(a, count(s_.M * s_.I), dtype_, threads_, cancel_);
        Floats right = load(b, count(s_.M * s_.I), dtype_, threads_, cancel_);
        each(right.size(), 1, [&](std::uint64_t j) { right[j] *= left[j]; });
        store(out, right, dtype_, threads_, cancel_);
    }

    // The merged product: row m holds g's I values, then u's.
    void gateUpProduct(void* target) const {
        const Floats w = gateUp();
        store(target,
              productABt(x().data(), s_.M, w.data(), 2 * s_.I, s_.H, dtype_, threads_, cancel_),
              dtype_, threads_, cancel_);
    }

    void siluMulRows(const void* gu, void* h) const {
        const Floats values = load(gu, count(2 * s_.M * s_.I), dtype_, threads_, cancel_);
        Floats hidden(count(s_.M * s_.I));
        each(hidden.size(), kSiluWork, [&](std::uint64_t j) {
            const std::int64_t m = static_cast<std::int64_t>(j) / s_.I;
            const std::int64_t i = static_cast<std::int64_t>(j) % s_.I;
            hidden[j] =
                silu(values[count(m * 2 * s_.I + i)]) * values[count(m * 2 * s_.I + s_.I + i)];
        });
        store(h, hidden, dtype_, threads_, cancel_);
    }

    // g and u stay in float32 (registers on the GPU); only h is stored.
    void gateUpSilu(void* h) const {
        const Floats w = gateUp();
        const Floats in = x();
        const Floats g =
            productABt(in.data(), s_.M, w.data(), s_.I, s_.H, DType::Float32, threads_, cancel_);
        const Floats u = productABt(in.data(), s_.M, w.data() + s_.I * s_.H, s_.I, s_.H,
                                    DType::Float32, threads_, cancel_);
        Floats hidden(g.size());
        each(hidden.size(), kSiluWork, [&](std::uint64_t j) { hidden[j] = silu(g[j]) * u[j]; });
        store(h, hidden, dtype_, threads_, cancel_);
    }

    void down() const {
        const Floats hidden = operands(load(b_.h, count(s_.M * s_.I), dtype_, threads_, cancel_),
                                       dtype_, threads_, cancel_);
        const Floats weights = downWeights();
        store(b_.out,
              productABt(hidden.data(), s_.M, weights.data(), s_.H, s_.I, DType::Float32, threads_,
                         cancel_),
              dtype_, threads_, cancel_);
    }

    // The lesson kernel's loops: per (M tile, output-column tile) block and per I chunk, g and u
    // over all of H, SiLU*up rounded to the storage type (and for tf32 to the tensor cores'
    // operand), accumulated into the block's output tile.
    void lessonFused(const LessonTiles& t) const {
        const Floats in = x();
        const Floats w = gateUp();
        const Floats dn = downWeights();
        const std::int64_t tilesM = ceilDiv(s_.M, t.blockM), tilesN = ceilDiv(s_.H, t.blockN);
        Floats result(count(s_.M * s_.H));
        const float* up = w.data() + s_.I * s_.H;
        // A block's work is far above kCancelBlockWork: it also asks once per I chunk.
        const auto blockWork = static_cast<std::uint64_t>(t.blockM * t.blockN * s_.I);
        parallelFor(
            static_cast<std::uint64_t>(tilesM * tilesN), threads_, cancel_, blockWork,
            [&](std::uint64_t begin, std::uint64_t end) {
                Floats hidden(count(t.blockM * t.blockI));
                Floats acc(count(t.blockM * t.blockN));
                for (std::uint64_t block = begin; block < end; ++block) {
                    const std::int64_t m0 = static_cast<std::int64_t>(block) / tilesN * t.blockM;
                    const std::int64_t n0 = static_cast<std::int64_t>(block) % tilesN * t.blockN;
                    const std::int64_t rows = std::min<std::int64_t>(t.blockM, s_.M - m0);
                    const std::int64_t cols = std::min<std::int64_t>(t.blockN, s_.H - n0);
                    std::fill(acc.begin(), acc.end(), 0.0f);
                    for (std::int64_t i0 = 0; i0 < s_.I; i0 += t.blockI) {
                        if (cancel_.cancelled()) return;
                        const std::int64_t chunk = std::min<std::int64_t>(t.blockI, s_.I - i0);
                        for (std::int64_t r = 0; r < rows; ++r) {
                            const float* xr = &in[count((m0 + r) * s_.H)];
                            for (std::int64_t i = 0; i < chunk; ++i) {
                                const float* gr = &w[count((i0 + i) * s_.H)];
                                const float* ur = up + (i0 + i) * s_.H;
                                float g = 0, u = 0;
                                for (std::int64_t k = 0; k < s_.H; ++k) {
                                    g += xr[k] * gr[k];
                                    u += xr[k] * ur[k];
                                }
                                hidden[count(r * t.blockI + i)] =
                                    roundToOperand(roundToStorage(silu(g) * u, dtype_), dtype_);
                            }
                        }
                        for (std::int64_t r = 0; r < rows; ++r)
                            for (std::int64_t n = 0; n < cols; ++n) {
                                const float* dr = &dn[count((n0 + n) * s_.I + i0)];
                                const float* hr = &hidden[count(r * t.blockI)];
                                float sum = 0;
                                for (std::int64_t i = 0; i < chunk; ++i) sum += hr[i] * dr[i];
                                acc[count(r * t.blockN + n)] += sum;
                            }
                    }
                    for (std::int64_t r = 0; r < rows; ++r)
                        for (std::int64_t n = 0; n < cols; ++n)
                            result[count((m0 + r) * s_.H + n0 + n)] = acc[count(r * t.blockN + n)];
                }
            });
        store(b_.out, result, dtype_, threads_, cancel_);
    }

  private:
    static std::size_t count(std::int64_t value) { return static_cast<std::size_t>(value); }

    // op(j) for every j in [0, n), over the threads, asking the cancel token per block.
    template <typename Op>
    void each(std::uint64_t n, std::uint64_t workPerElement, const Op& op) const {
        parallelFor(n, threads_, cancel_, workPerElement,
                    [&](std::uint64_t begin, std::uint64_t end) {
                        for (std::uint64_t j = begin; j < end; ++j) op(j);
                    });
    }

    MlpShape s_;
    DType dtype_;
    MlpCallBuffers b_;
    int threads_;
    const CancelToken& cancel_;
};

// One kernel's CPU code: a stage over the call's buffers.
using Stage = void (*)(const Stages& stages, const MlpCallBuffers& b, const Problem& problem);

class MlpCpuKernel final : public KernelExecution {
  public:
    explicit MlpCpuKernel(Stage stage) : stage_(stage) {}

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const Result<MlpCallBuffers> b = mlpCallBuffers(call);
        if (!b) return b.status();
        const Stages stages(shapeOf(*call.problem), call.problem->dtype, *b, target.hostThreads,
                            target.cancel);
        stage_(stages, *b, *call.problem);
        // A cancelled stage stopped part-way: what it wrote is incomplete.
        return target.cancel.cancelled() ? cancelledStatus() : Status::ok();
    }

  private:
    Stage stage_;
};

}  // namespace

void addMlpCpuExecutions(ExecutionCatalog& catalog) {
    const std::pair<std::string_view, Stage> stages[] = {
        {kernel::kGemmGate, [](const Stages& s, const MlpCallBuffers& b,
                               const Problem&) { s.projection(false, b.g); }},
        {kernel::kGemmUp,
         [](const Stages& s, const MlpCallBuffers& b, const Problem&) { s.projection(true, b.u); }},
        {kernel::kSilu,
         [](const Stages& s, const MlpCallBuffers& b, const Problem&) { s.siluInPlace(b.g); }},
        {kernel::kMultiply, [](const Stages& s, const MlpCallBuffers& b,
                               const Problem&) { s.multiply(b.g, b.u, b.h); }},
        {kernel::kGemmDown,
         [](const Stages& s, const MlpCallBuffers&, const Problem&) { s.down(); }},
        {kernel::kGemvDown,
         [](const Stages& s, const MlpCallBuffers&, const Problem&) { s.down(); }},
        {kernel::kLesson, [](const Stages& s, const MlpCallBuffers&,
                             const Problem& p) { s.lessonFused(tilesOf(p)); }},
        // The production fusion's GEMM and GEMV compute the same values.
        {kernel::kGemmGateUpSilu,
         [](const Stages& s, const MlpCallBuffers& b, const Problem&) { s.gateUpSilu(b.h); }},
        {kernel::kGemvGateUpSilu,
         [](const Stages& s, const MlpCallBuffers& b, const Problem&) { s.gateUpSilu(b.h); }},
        {kernel::kGemmGateUp,
         [](const Stages& s, const MlpCallBuffers& b, const Problem&) { s.gateUpProduct(b.g); }},
        {kernel::kSiluMul,
         [](const Stages& s, const MlpCallBuffers& b, const Problem&) { s.siluMulRows(b.g, b.h); }},
    };
    for (const auto& [name, stage] : stages)
        catalog.emplace(executionKey(name), std::make_unique<MlpCpuKernel>(stage));
}

}  // namespace fusescope::mlp
