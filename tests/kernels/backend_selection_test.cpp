// The one policy that turns auto, cuda or cpu into a backend, for the CLI, the worker and tools.
#include <gtest/gtest.h>

#include "fakes/forwarding_backend.h"
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

namespace fusescope {
namespace {

// Several GPUs in one host: a GPU that is not there is refused with the reason, before any
// backend is made; the test holds on a machine without a GPU and on one with any number.
TEST(ChooseGpu, ANegativeNumberIsNoDevice) {
    const Status status = checkCudaDevice(-1);
    EXPECT_EQ(status.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(status.message().find("GPU -1"), std::string::npos) << status.message();
}

TEST(ChooseGpu, OnlyTheHostsGpusAreAcceptedAndTheRefusalSaysWhy) {
    Result<std::vector<std::string>> names = cudaDeviceNames();
    const BackendAvailability availability = probeBackends();
    EXPECT_EQ(names.isOk(), availability.cudaUsable);
    if (!names) {
        const Status status = checkCudaDevice(0);
        EXPECT_EQ(status.code(), ErrorCode::DeviceUnavailable);
        EXPECT_EQ(status.message(), "GPU 0: " + availability.cudaReason);
        return;
    }
    const int count = static_cast<int>(names->size());
    for (int device = 0; device < count; ++device) EXPECT_TRUE(checkCudaDevice(device).isOk());
    const Status beyond = checkCudaDevice(count);
    EXPECT_EQ(beyond.code(), ErrorCode::DeviceUnavailable);
    EXPECT_NE(beyond.message().find("there is no GPU " + std::to_string(count)), std::string::npos)
        << beyond.message();
}

TEST(ChooseGpu, AChosenGpuIsNeverQuietlyReplacedByTheCpu) {
    BackendSet backends;
    constexpr int kNoSuchGpu = 1000;
    for (BackendChoice choice : {BackendChoice::Auto, BackendChoice::Cuda}) {
        Result<BackendSelection> selection = selectBackend(choice, backends, kNoSuchGpu);
        ASSERT_FALSE(selection.isOk()) << backendChoiceKey(choice);
        EXPECT_EQ(selection.status().code(), ErrorCode::DeviceUnavailable);
        EXPECT_NE(selection.status().message().find("GPU 1000"), std::string::npos)
            << selection.status().message();
    }
    // The CPU backend has no GPU to choose.
    Result<BackendSelection> cpu = selectBackend(BackendChoice::Cpu, backends, kNoSuchGpu);
    ASSERT_TRUE(cpu.isOk());
    EXPECT_EQ(cpu->backend->kind(), BackendKind::Cpu);
}

TEST(ChooseGpu, TheChosenGpuIsTheBackendsDevice) {
    Result<std::vector<std::string>> names = cudaDeviceNames();
    if (!names) GTEST_SKIP() << "no usable GPU here: " << names.status().message();
    BackendSet backends;
    const int last = static_cast<int>(names->size()) - 1;
    Result<BackendSelection> selection = selectBackend(BackendChoice::Cuda, backends, last);
    ASSERT_TRUE(selection.isOk()) << selection.status().message();
    const DeviceInfo device = selection->backend->describe();
    EXPECT_EQ(device.deviceIndex, last);
    EXPECT_EQ(device.name, (*names)[static_cast<std::size_t>(last)]);
}

}  // namespace
}  // namespace fusescope

namespace fusescope {
namespace {

// A GPU whose health the test sets: made of the CPU backend, it says it is CUDA.
class StandInGpu final : public testing_support::ForwardingBackend {
  public:
    StandInGpu(Status& health, int& destroyed)
        : ForwardingBackend(createCpuBackend(1)), health_(health), destroyed_(destroyed) {}
    ~StandInGpu() override { ++destroyed_; }
    BackendKind kind() const override { return BackendKind::Cuda; }
    Status health() override { return health_; }

  private:
    Status& health_;
    int& destroyed_;
};

struct StandInDriver {
    Status health;
    bool usable = true;
    int opened = 0;
    int destroyed = 0;
    std::vector<int> resets;
    Status resetResult;

    CudaDriver driver() {
        CudaDriver d;
        d.probe = [this] {
            BackendAvailability availability;
            availability.cudaBuilt = true;
            availability.cudaUsable = usable;
            if (!usable) availability.cudaReason = "the stand-in GPU is gone";
            return availability;
        };
        d.checkDevice = [this](int index) {
            return usable && index < 2 ? Status::ok()
                                       : Status(ErrorCode::DeviceUnavailable, "no such GPU");
        };
        d.open = [this](int) -> Result<std::unique_ptr<Backend>> {
            ++opened;
            return std::unique_ptr<Backend>(std::make_unique<StandInGpu>(health, destroyed));
        };
        d.reset = [this](int index) {
            resets.push_back(index);
            return resetResult;
        };
        return d;
    }
};

TEST(BackendSetRecovery, AHealthyOrUnopenedGpuNeedsNoReset) {
    StandInDriver stand;
    BackendSet backends(stand.driver());
    EXPECT_TRUE(backends.cudaHealth());  // nothing open
    ASSERT_TRUE(selectBackend(BackendChoice::Cuda, backends));
    EXPECT_TRUE(backends.cudaHealth());
    EXPECT_EQ(stand.opened, 1);
}

TEST(BackendSetRecovery, ABrokenGpuIsDroppedResetAndOpenedAfresh) {
    StandInDriver stand;
    BackendSet backends(stand.driver());
    ASSERT_TRUE(selectBackend(BackendChoice::Cuda, backends, 1));
    stand.health = Status(ErrorCode::DeviceError, "cudaErrorIllegalAddress");
    const Status health = backends.cudaHealth();
    ASSERT_FALSE(health);
    EXPECT_EQ(health.message(), "cudaErrorIllegalAddress");
    EXPECT_TRUE(backends.resetCuda());
    // The backend went before the device was reset, on the GPU that was open.
    EXPECT_EQ(stand.destroyed, 1);
    EXPECT_EQ(stand.resets, std::vector<int>{1});
    stand.health = Status::ok();
    ASSERT_TRUE(selectBackend(BackendChoice::Cuda, backends, 1));
    EXPECT_EQ(stand.opened, 2);
}

TEST(BackendSetRecovery, AGpuGoneAtTheResetLeavesAutoOnTheCpu) {
    StandInDriver stand;
    BackendSet backends(stand.driver());
    ASSERT_TRUE(selectBackend(BackendChoice::Auto, backends));
    stand.resetResult = Status(ErrorCode::DeviceUnavailable, "cudaErrorNoDevice");
    stand.usable = false;
    EXPECT_FALSE(backends.resetCuda());
    Result<BackendSelection> selection = selectBackend(BackendChoice::Auto, backends);
    ASSERT_TRUE(selection) << selection.status().message();
    EXPECT_EQ(selection->backend->kind(), BackendKind::Cpu);
    EXPECT_NE(selection->autoNote.find("the stand-in GPU is gone"), std::string::npos)
        << selection->autoNote;
    Result<BackendSelection> named = selectBackend(BackendChoice::Cuda, backends, 0);
    ASSERT_FALSE(named);
    EXPECT_NE(named.status().message().find("no such GPU"), std::string::npos);
}

}  // namespace
}  // namespace fusescope
