#pragma once
// A test that needs the GPU: it gets a fresh CUDA backend, or skips with the reason there is none.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>

#include "platform/runtime_compiler.h"
#include "runtime/backend.h"

namespace fusescope::testing_support {

class GpuTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const BackendAvailability availability = probeBackends();
        if (!availability.cudaUsable) GTEST_SKIP() << availability.cudaReason;
        Result<std::unique_ptr<Backend>> created = createCudaBackend();
        // The probe found a GPU: failing to use it is a real failure, not a reason to skip.
        ASSERT_TRUE(created) << created.status().message();
        backend = std::move(*created);
    }

    std::unique_ptr<Backend> backend;
};

// A GPU test of kernels compiled at run time: NVRTC must be there too. A GPU without NVRTC beside
// it is a setup the lead's machine does not have: it fails, naming why, rather than skips.
class NvrtcGpuTest : public GpuTest {
  protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        Result<ModuleCompiler*> compiler = runtimeCompiler();
        ASSERT_TRUE(compiler) << compiler.status().message();
    }
};

// Such a test run at each (vector width, N) of bothWidthsAtEdgeSizes().
using WidthAndSize = std::tuple<int, std::uint64_t>;
class NvrtcWidthAndSizeTest : public NvrtcGpuTest,
                              public ::testing::WithParamInterface<WidthAndSize> {};

// Both vector widths at N below, at and past one float4 group, an odd size, and one past the
// 60 MB L2.
inline auto bothWidthsAtEdgeSizes() {
    return ::testing::Combine(::testing::Values(1, 4),
                              ::testing::Values(1u, 3u, 5u, 1000003u, 1u << 24));
}

// "w4_n1000003": readable names for --gtest_filter.
inline std::string widthAndSizeName(const ::testing::TestParamInfo<WidthAndSize>& info) {
    std::string name = "w";
    name += std::to_string(std::get<0>(info.param));
    name += "_n";
    name += std::to_string(std::get<1>(info.param));
    return name;
}

}  // namespace fusescope::testing_support
