// The one policy that turns auto, cuda or cpu into a backend, for the CLI, the worker and tools.
#include <gtest/gtest.h>

#include "runtime/backend_selection.h"

namespace fusescope {
namespace {

TEST(BackendChoice, KeysRoundTripAndUnknownKeysGiveNothing) {
    for (BackendChoice choice : {BackendChoice::Auto, BackendChoice::Cuda, BackendChoice::Cpu})
        EXPECT_EQ(backendChoiceFromKey(backendChoiceKey(choice)), choice);
    EXPECT_EQ(backendChoiceFromKey(" CUDA "), BackendChoice::Cuda);
    EXPECT_FALSE(backendChoiceFromKey("tpu"));
    EXPECT_FALSE(backendChoiceFromKey(""));
}

TEST(SelectBackend, CpuIsTheCpuBackendWithoutANote) {
    BackendSet backends;
    Result<BackendSelection> selection = selectBackend(BackendChoice::Cpu, backends);
    ASSERT_TRUE(selection.isOk()) << selection.status().message();
    EXPECT_EQ(selection->backend->kind(), BackendKind::Cpu);
    EXPECT_TRUE(selection->autoNote.empty());
    // The set keeps its backends: the same one comes back.
    EXPECT_EQ(selectBackend(BackendChoice::Cpu, backends)->backend, selection->backend);
}

TEST(SelectBackend, AutoSaysWhichBackendAndWhy) {
    BackendSet backends;
    Result<BackendSelection> selection = selectBackend(BackendChoice::Auto, backends);
    ASSERT_TRUE(selection.isOk()) << selection.status().message();
    const BackendAvailability availability = probeBackends();
    if (selection->backend->kind() == BackendKind::Cuda) {
        EXPECT_NE(selection->autoNote.find("using CUDA"), std::string::npos);
    } else {
        EXPECT_NE(selection->autoNote.find("using the CPU backend"), std::string::npos);
        if (!availability.cudaUsable) {
            EXPECT_NE(selection->autoNote.find(availability.cudaReason), std::string::npos)
                << selection->autoNote;
        }
    }
}

TEST(SelectBackend, CudaWithoutAGpuFailsWithTheReason) {
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable) GTEST_SKIP() << "a usable GPU is present";
    BackendSet backends;
    Result<BackendSelection> selection = selectBackend(BackendChoice::Cuda, backends);
    ASSERT_FALSE(selection.isOk());
    EXPECT_EQ(selection.status().code(), ErrorCode::DeviceUnavailable);
    EXPECT_NE(selection.status().message().find(availability.cudaReason), std::string::npos);
}

}  // namespace
}  // namespace fusescope
