#pragma once
// A test that needs the GPU: it gets a fresh CUDA backend, or skips with the reason there is none.
#include <gtest/gtest.h>

#include <memory>

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

}  // namespace fusescope::testing_support
