#include "pipelines/mlp/mlp_reference.h"

#include <cmath>

#include "platform/parallel.h"

namespace fusescope::mlp {

std::vector<std::int64_t> referenceRows(std::int64_t M, std::int64_t maxRows) {
    std::vector<std::int64_t> rows;
    if (M <= maxRows) {
        for (std::int64_t r = 0; r < M; ++r) rows.push_back(r);
        return rows;
    }
    for (std::int64_t k = 0; k < maxRows; ++k) rows.push_back(k * (M - 1) / (maxRows - 1));
    return rows;
}

std::vector<double> referenceOutput(const MlpShape& shape, const MlpHostInputs& inputs,
                                    const std::vector<std::int64_t>& rows, int threads,
                                    const CancelToken& cancel) {
    const std::int64_t H = shape.H, I = shape.I;
    const auto count = static_cast<std::int64_t>(rows.size());
    std::vector<double> hidden(static_cast<std::size_t>(count * I));
    const std::vector<float> x = inputs.x.toFloats(threads, cancel);
    {
        const std::vector<float> gateUp = inputs.gateUp.toFloats(threads, cancel);
        parallelFor(static_cast<std::uint64_t>(count * I), threads, cancel,
                    static_cast<std::uint64_t>(2 * H), [&](std::uint64_t begin, std::uint64_t end) {
                        for (std::uint64_t j = begin; j < end; ++j) {
                            const std::int64_t r = static_cast<std::int64_t>(j) / I;
                            const std::int64_t i = static_cast<std::int64_t>(j) % I;
                            const float* xr = &x[static_cast<std::size_t>(rows[r] * H)];
                            const float* gr = &gateUp[static_cast<std::size_t>(i * H)];
                            const float* ur = &gateUp[static_cast<std::size_t>((I + i) * H)];
                            double g = 0, u = 0;
                            for (std::int64_t k = 0; k < H; ++k) {
                                g += double(xr[k]) * double(gr[k]);
                                u += double(xr[k]) * double(ur[k]);
                            }
                            hidden[j] = g / (1.0 + std::exp(-g)) * u;
                        }
                    });
    }
    const std::vector<float> down = inputs.down.toFloats(threads, cancel);
    std::vector<double> out(static_cast<std::size_t>(count * H));
    parallelFor(out.size(), threads, cancel, static_cast<std::uint64_t>(I),
                [&](std::uint64_t begin, std::uint64_t end) {
                    for (std::uint64_t j = begin; j < end; ++j) {
                        const std::int64_t r = static_cast<std::int64_t>(j) / H;
                        const std::int64_t n = static_cast<std::int64_t>(j) % H;
                        const double* hr = &hidden[static_cast<std::size_t>(r * I)];
                        const float* dr = &down[static_cast<std::size_t>(n * I)];
                        double sum = 0;
                        for (std::int64_t i = 0; i < I; ++i) sum += hr[i] * double(dr[i]);
                        out[j] = sum;
                    }
                });
    return out;
}

Comparison compareRows(const HostMatrix& out, const std::vector<std::int64_t>& rows,
                       const std::vector<double>& reference) {
    Comparison result;
    const std::int64_t H = out.cols();
    double diff = 0, norm = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::int64_t n = 0; n < H; ++n) {
            const double value = out.at(static_cast<std::size_t>(rows[r] * H + n));
            const double expected = reference[r * static_cast<std::size_t>(H) + n];
            if (std::isnan(value)) {
                ++result.nanElements;
                continue;
            }
            diff += (value - expected) * (value - expected);
            norm += expected * expected;
        }
    }
    result.relativeError = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
    return result;
}

double toleranceFor(DType dtype) {
    switch (dtype) {
        case DType::Float32:
            return 1e-4;
        case DType::Tf32:
            // Each product's operands are rounded to a 10-bit mantissa (unit roundoff 2^-11, about
            // 4.9e-4): a product carries a relative error of up to about 1e-3, of random sign, so
            // one GEMM's output is off by a few 1e-4 relative and the three chained GEMMs by about
            // 1e-3. 5e-3 leaves room for that, and stays 4x tighter than bfloat16's.
            return 5e-3;
        case DType::Bfloat16:
            break;
    }
    return 2e-2;
}

}  // namespace fusescope::mlp
