#include "pipelines/mlp/mlp_cpu.h"

#include <cmath>
#include <string>

#include "runtime/parallel.h"

namespace fusescope::mlp {
namespace {

float silu(float g) {
    return g / (1.0f + std::exp(-g));
}

// C (rows x N) = A (rows x K) * B (N x K)^T, float accumulation, each product rounded to `dtype`.
std::vector<float> productABt(const float* a, std::int64_t rows, const float* b, std::int64_t N,
                              std::int64_t K, MlpDtype dtype, int threads) {
    std::vector<float> c(static_cast<std::size_t>(rows * N));
    parallelFor(c.size(), threads, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t j = begin; j < end; ++j) {
            const float* ar = a + static_cast<std::int64_t>(j) / N * K;
            const float* br = b + static_cast<std::int64_t>(j) % N * K;
            float sum = 0;
            for (std::int64_t k = 0; k < K; ++k) sum += ar[k] * br[k];
            c[j] = roundToStorage(sum, dtype);
        }
    });
    return c;
}

struct FloatInputs {
    std::vector<float> x, gateUp, down;
};

FloatInputs floatsOf(const MlpHostInputs& in, int threads) {
    return {in.x.toFloats(threads), in.gateUp.toFloats(threads), in.down.toFloats(threads)};
}

// g and u into memory (rounded), then SiLU and the product as separate passes, as a framework
// runs them; the merged variant computes g and u as one product, which rounds the same way.
std::vector<float> unfusedHidden(const MlpShape& s, const FloatInputs& f, MlpDtype dtype,
                                 int threads, bool siluRoundedSeparately) {
    const std::vector<float> g =
        productABt(f.x.data(), s.M, f.gateUp.data(), s.I, s.H, dtype, threads);
    const std::vector<float> u =
        productABt(f.x.data(), s.M, f.gateUp.data() + s.I * s.H, s.I, s.H, dtype, threads);
    std::vector<float> h(g.size());
    parallelFor(h.size(), threads, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t j = begin; j < end; ++j) {
            const float activated =
                siluRoundedSeparately ? roundToStorage(silu(g[j]), dtype) : silu(g[j]);
            h[j] = roundToStorage(activated * u[j], dtype);
        }
    });
    return h;
}

// g and u stay in float32 (registers on the GPU); only h is stored.
std::vector<float> productionHidden(const MlpShape& s, const FloatInputs& f, MlpDtype dtype,
                                    int threads) {
    const MlpDtype keep = MlpDtype::Float32;
    const std::vector<float> g =
        productABt(f.x.data(), s.M, f.gateUp.data(), s.I, s.H, keep, threads);
    const std::vector<float> u =
        productABt(f.x.data(), s.M, f.gateUp.data() + s.I * s.H, s.I, s.H, keep, threads);
    std::vector<float> h(g.size());
    for (std::size_t j = 0; j < h.size(); ++j) h[j] = roundToStorage(silu(g[j]) * u[j], dtype);
    return h;
}

// The lesson kernel's loops: per (M tile, output-column tile) block and per I chunk, g and u over
// all of H, SiLU*up rounded to the storage type (the tensor cores' operand), accumulated into the
// block's output tile.
void lessonFused(const MlpShape& s, const FloatInputs& f, const LessonTiles& t, HostMatrix& out,
                 int threads) {
    const std::int64_t tilesM = ceilDiv(s.M, t.blockM), tilesN = ceilDiv(s.H, t.blockN);
    const MlpDtype dtype = out.dtype();
    std::vector<float> result(out.elements());
    const float* up = f.gateUp.data() + s.I * s.H;
    parallelFor(
        static_cast<std::uint64_t>(tilesM * tilesN), threads,
        [&](std::uint64_t begin, std::uint64_t end) {
            std::vector<float> hidden(static_cast<std::size_t>(t.blockM * t.blockI));
            std::vector<float> acc(static_cast<std::size_t>(t.blockM * t.blockN));
            for (std::uint64_t block = begin; block < end; ++block) {
                const std::int64_t m0 = static_cast<std::int64_t>(block) / tilesN * t.blockM;
                const std::int64_t n0 = static_cast<std::int64_t>(block) % tilesN * t.blockN;
                const std::int64_t rows = std::min<std::int64_t>(t.blockM, s.M - m0);
                const std::int64_t cols = std::min<std::int64_t>(t.blockN, s.H - n0);
                std::fill(acc.begin(), acc.end(), 0.0f);
                for (std::int64_t i0 = 0; i0 < s.I; i0 += t.blockI) {
                    const std::int64_t chunk = std::min<std::int64_t>(t.blockI, s.I - i0);
                    for (std::int64_t r = 0; r < rows; ++r) {
                        const float* xr = &f.x[static_cast<std::size_t>((m0 + r) * s.H)];
                        for (std::int64_t i = 0; i < chunk; ++i) {
                            const float* gr = &f.gateUp[static_cast<std::size_t>((i0 + i) * s.H)];
                            const float* ur = up + (i0 + i) * s.H;
                            float g = 0, u = 0;
                            for (std::int64_t k = 0; k < s.H; ++k) {
                                g += xr[k] * gr[k];
                                u += xr[k] * ur[k];
                            }
                            hidden[static_cast<std::size_t>(r * t.blockI + i)] =
                                roundToStorage(silu(g) * u, dtype);
                        }
                    }
                    for (std::int64_t r = 0; r < rows; ++r) {
                        for (std::int64_t n = 0; n < cols; ++n) {
                            const float* dr =
                                &f.down[static_cast<std::size_t>((n0 + n) * s.I + i0)];
                            const float* hr = &hidden[static_cast<std::size_t>(r * t.blockI)];
                            float sum = 0;
                            for (std::int64_t i = 0; i < chunk; ++i) sum += hr[i] * dr[i];
                            acc[static_cast<std::size_t>(r * t.blockN + n)] += sum;
                        }
                    }
                }
                for (std::int64_t r = 0; r < rows; ++r)
                    for (std::int64_t n = 0; n < cols; ++n)
                        result[static_cast<std::size_t>((m0 + r) * s.H + n0 + n)] =
                            acc[static_cast<std::size_t>(r * t.blockN + n)];
            }
        });
    out.assign(result, threads);
}

bool matches(const HostMatrix& m, MlpDtype dtype, std::int64_t rows, std::int64_t cols) {
    return m.dtype() == dtype && m.rows() == rows && m.cols() == cols;
}

}  // namespace

Status checkHostProblem(const MlpShape& s, const MlpHostInputs& in, const HostMatrix& out,
                        const LessonTiles& t) {
    if (s.M <= 0 || s.H <= 0 || s.I <= 0)
        return {ErrorCode::InvalidArgument, "M, H and I must be positive"};
    if (t.blockM <= 0 || t.blockN <= 0 || t.blockH <= 0 || t.blockI <= 0)
        return {ErrorCode::InvalidArgument, "tile sizes must be positive"};
    const MlpDtype dtype = in.x.dtype();
    if (!matches(in.x, dtype, s.M, s.H) || !matches(in.gateUp, dtype, 2 * s.I, s.H) ||
        !matches(in.down, dtype, s.H, s.I) || !matches(out, dtype, s.M, s.H))
        return {ErrorCode::InvalidArgument,
                "matrices must be x M x H, gate_up 2I x H, down H x I and out M x H, all of one "
                "dtype"};
    return Status::ok();
}

Status runMlpCpu(MlpVariant variant, const MlpShape& s, const MlpHostInputs& in, HostMatrix& out,
                 int threads, const LessonTiles& tiles) {
    if (Status status = checkHostProblem(s, in, out, tiles); !status) return status;
    const MlpDtype dtype = out.dtype();
    const FloatInputs f = floatsOf(in, threads);
    std::vector<float> hidden;
    switch (variant) {
        case MlpVariant::LessonFused:
            lessonFused(s, f, tiles, out, threads);
            return Status::ok();
        case MlpVariant::Unfused:
            hidden = unfusedHidden(s, f, dtype, threads, true);
            break;
        case MlpVariant::MergedGateUp:
            hidden = unfusedHidden(s, f, dtype, threads, false);
            break;
        case MlpVariant::Production:
            hidden = productionHidden(s, f, dtype, threads);
            break;
    }
    out.assign(productABt(hidden.data(), s.M, f.down.data(), s.H, s.I, MlpDtype::Float32, threads),
               threads);
    return Status::ok();
}

}  // namespace fusescope::mlp
