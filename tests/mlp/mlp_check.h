#pragma once
// Judges one variant's output against the double reference: every element written, relative
// Frobenius error within the dtype's tolerance.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <string_view>

#include "mlp_test_shapes.h"
#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/mlp/mlp_reference.h"
#include "support/registry_run.h"

namespace fusescope::mlp::testing_support {

inline constexpr int kThreads = 0;  // all hardware threads

// Fresh random inputs and their double reference over every row (the test shapes are small).
struct ReferenceCase {
    MlpHostInputs inputs;
    std::vector<std::int64_t> rows;
    std::vector<double> reference;
};

inline ReferenceCase makeReferenceCase(const MlpShape& shape, DType dtype, std::uint64_t seed) {
    ReferenceCase c{makeRandomInputs(shape, dtype, seed, kThreads), referenceRows(shape.M, 64), {}};
    c.reference = referenceOutput(shape, c.inputs, c.rows, kThreads);
    return c;
}

// The registry's MLP variants, in declaration order.
inline std::vector<std::string> mlpVariants() {
    std::vector<std::string> names;
    for (const VariantSpec& variant : findPipeline(kPipelineName)->variants)
        names.push_back(variant.name);
    return names;
}

// A request for one variant of the registry's MLP at this shape and dtype, every tuning at its
// default.
inline RunRequest mlpRequest(std::string_view variant, const MlpShape& shape, DType dtype) {
    const PipelineSpec& pipeline = *findPipeline(kPipelineName);
    RunRequest request;
    request.pipeline = pipeline.name;
    request.variants = {std::string(variant)};
    request.problem.dtype = dtype;
    request.problem.dimensions = {{"M", static_cast<std::uint64_t>(shape.M)},
                                  {"H", static_cast<std::uint64_t>(shape.H)},
                                  {"I", static_cast<std::uint64_t>(shape.I)}};
    request.problem = withDefaults(pipeline, request.problem);
    return request;
}

// The request's variant run once on the backend (the one way every variant runs) on these
// inputs; its output.
inline Result<HostMatrix> runMlpOnce(Backend& backend, const RunRequest& request,
                                     const MlpHostInputs& inputs) {
    Result<std::vector<unsigned char>> bytes =
        fusescope::testing_support::runVariantOnce(backend, request, hostBuffersOf(inputs));
    if (!bytes) return bytes.status();
    HostMatrix out(inputs.x.dtype(), inputs.x.rows(), inputs.x.cols());
    if (bytes->size() != out.bytes())
        return Status(ErrorCode::InvalidArgument, "the output is not M x H");
    std::memcpy(out.data(), bytes->data(), out.bytes());
    return out;
}

inline std::string dtypeParamName(const ::testing::TestParamInfo<DType>& param) {
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

// Every variant on the backend against the reference on every odd shape, in one dtype.
inline void expectEveryVariantMatchesTheReference(Backend& backend, DType dtype,
                                                  std::uint64_t seed) {
    for (const MlpShape& shape : kOddShapes) {
        const ReferenceCase c = makeReferenceCase(shape, dtype, ++seed);
        for (const std::string& variant : mlpVariants()) {
            SCOPED_TRACE(variant + " " + shapeText(shape));
            Result<HostMatrix> out =
                runMlpOnce(backend, mlpRequest(variant, shape, dtype), c.inputs);
            ASSERT_TRUE(out) << out.status().message();
            EXPECT_TRUE(matchesReference(*out, c.rows, c.reference));
        }
    }
}

}  // namespace fusescope::mlp::testing_support
