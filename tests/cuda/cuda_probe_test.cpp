// Always runs: the probe explains itself whether or not a GPU is here.
#include <gtest/gtest.h>

#include "runtime/backend.h"

using namespace fusescope;

TEST(CudaProbe, SaysWhyTheGpuIsNotUsable) {
    const BackendAvailability availability = probeBackends();
#ifdef FUSESCOPE_HAVE_CUDA
    EXPECT_TRUE(availability.cudaBuilt);
#else
    EXPECT_FALSE(availability.cudaBuilt);
    EXPECT_FALSE(availability.cudaUsable);
#endif
    if (availability.cudaUsable) {
        EXPECT_TRUE(availability.cudaReason.empty()) << availability.cudaReason;
        return;
    }
    EXPECT_FALSE(availability.cudaReason.empty());
    if (availability.cudaBuilt) {
        EXPECT_EQ(availability.cudaReason.rfind("no usable NVIDIA GPU: ", 0), 0u)
            << availability.cudaReason;
    }
    // Too old a driver (Debian's own is 535) must be named with the version CUDA 13 needs.
    if (availability.cudaReason.find("cudaErrorInsufficientDriver") != std::string::npos) {
        EXPECT_NE(availability.cudaReason.find("driver 580 or newer"), std::string::npos)
            << availability.cudaReason;
    }
}

TEST(CudaProbe, CreatingTheBackendWithoutAGpuFailsWithTheSameReason) {
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable) GTEST_SKIP() << "a GPU is usable here";
    Result<std::unique_ptr<Backend>> backend = createCudaBackend();
    ASSERT_FALSE(backend);
    EXPECT_EQ(backend.status().code(), ErrorCode::DeviceUnavailable);
    // The backend may name the GPU it was asked for ("GPU 0: ") before the probe's reason.
    const std::string message = backend.status().message();
    EXPECT_NE(message.find(availability.cudaReason), std::string::npos) << message;
}
