#pragma once
// Judges one variant's output against the double reference: every element written, relative
// Frobenius error within the dtype's tolerance.
#include <gtest/gtest.h>

#include <string>

#include "pipelines/mlp/mlp_reference.h"

namespace fusescope::mlp::testing_support {

inline constexpr int kThreads = 0;  // all hardware threads

// Fresh random inputs and their double reference over every row (the test shapes are small).
struct ReferenceCase {
    MlpHostInputs inputs;
    std::vector<std::int64_t> rows;
    std::vector<double> reference;
};

inline ReferenceCase makeReferenceCase(const MlpShape& shape, MlpDtype dtype, std::uint64_t seed) {
    ReferenceCase c{makeRandomInputs(shape, dtype, seed, kThreads), referenceRows(shape.M, 64), {}};
    c.reference = referenceOutput(shape, c.inputs, c.rows, kThreads);
    return c;
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
