#pragma once
// Judges one variant's output against the double reference: every element written, relative
// Frobenius error within the dtype's tolerance.
#include <gtest/gtest.h>

#include <string>

#include "pipelines/mlp/mlp_reference.h"

namespace fusescope::mlp::testing_support {

inline constexpr int kThreads = 0;  // all hardware threads

// Rows the reference computes: all of them for the small test shapes.
inline std::vector<std::int64_t> checkedRows(const MlpShape& shape) {
    return referenceRows(shape.M, 64);
}

inline std::string dtypeParamName(const ::testing::TestParamInfo<MlpDtype>& param) {
    return std::string(dtypeName(param.param));
}

inline ::testing::AssertionResult matchesReference(const HostMatrix& out,
                                                   const std::vector<std::int64_t>& rows,
                                                   const std::vector<double>& reference) {
    const Comparison c = compareRows(out, rows, reference);
    const double tolerance = toleranceFor(out.dtype());
    if (out.countNaN(kThreads) != 0)
        return ::testing::AssertionFailure()
               << out.countNaN(kThreads) << " output elements unwritten (still NaN)";
    if (!c.passes(tolerance))
        return ::testing::AssertionFailure()
               << "relative error " << c.relativeError << " above " << tolerance;
    return ::testing::AssertionSuccess() << "relative error " << c.relativeError;
}

}  // namespace fusescope::mlp::testing_support
