#pragma once
// The double-precision reference of the MLP over chosen rows, and the comparison every variant is
// judged by: relative Frobenius error over those rows, with unwritten (NaN) elements counted.
#include <cstdint>
#include <vector>

#include "core/cancel_token.h"

#include "pipelines/mlp/mlp_host_data.h"

namespace fusescope::mlp {

// Every row when M <= maxRows; otherwise maxRows rows spread evenly, first and last included.
std::vector<std::int64_t> referenceRows(std::int64_t M, std::int64_t maxRows);

// out[r][n] in double for each listed row r (rows.size() x H, row-major). Stops early, the
// values incomplete, once `cancel` is set.
std::vector<double> referenceOutput(const MlpShape& shape, const MlpHostInputs& inputs,
                                    const std::vector<std::int64_t>& rows, int threads,
                                    const CancelToken& cancel = {});

struct Comparison {
    double relativeError = 0;  // ||out - ref||_F / ||ref||_F over the compared rows
    std::size_t nanElements = 0;
    bool passes(double tolerance) const { return nanElements == 0 && relativeError <= tolerance; }
};

Comparison compareRows(const HostMatrix& out, const std::vector<std::int64_t>& rows,
                       const std::vector<double>& reference);

// 1e-4 for float32 (no TF32 anywhere), 5e-3 for TF32 products, 2e-2 for bfloat16 storage.
double toleranceFor(DType dtype);

}  // namespace fusescope::mlp
