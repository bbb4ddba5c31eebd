// Code that chooses between its builds by timing them (KernelExecution::choose) does so once the
// inputs are on the device and the launch has its buffers, before the checked run; where it
// launched anything the outputs are poisoned again, so the checked run still shows what the kept
// build leaves unwritten; an error in choosing fails the variant with its reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fakes/forwarding_backend.h"
#include "pipelines/registry.h"
#include "runtime/runner.h"

using namespace fusescope;

namespace {

// One call the backend saw: an upload, a fill or a choice, and the buffers it touched.
struct Event {
    enum Kind { Upload, Fill, Choose } kind;
    std::vector<void*> buffers;
    unsigned char byte = 0;
};

// The CPU backend, recording the order of uploads, fills and choices; its choose() answers as
// the test says.
class ChoosingBackend : public testing_support::ForwardingBackend {
  public:
    explicit ChoosingBackend(Result<bool> answer)
        : ForwardingBackend(createCpuBackend(2)), answer_(std::move(answer)) {}

    Status upload(void* device, const void* host, std::uint64_t bytes) override {
        events.push_back({Event::Upload, {device}});
        return inner().upload(device, host, bytes);
    }
    Status fill(void* device, unsigned char byte, std::uint64_t bytes) override {
        events.push_back({Event::Fill, {device}, byte});
        return inner().fill(device, byte, bytes);
    }
    Result<bool> choose(const KernelLaunch& launch) override {
        events.push_back({Event::Choose, launch.call.buffers});
        return answer_;
    }

    std::vector<Event> events;

  private:
    Result<bool> answer_;
};

class Quiet : public RunObserver {};

RunRequest twoLaunchOf4099() {
    RunRequest request;
    request.pipeline = "swiglu";
    request.variants = {"two_launch"};
    request.problem.dimensions["N"] = 4099;
    request.settings.warmup = 0;
    request.settings.repeats = 1;
    request.roofs = false;
    return request;
}

std::size_t kernelsOf(std::string_view variantName) {
    const RunRequest request = twoLaunchOf4099();
    return findVariant(*findPipeline("swiglu"), variantName)->kernelsFor(request.problem).size();
}

// What the events say of the run's buffers, before the first choice and after the last.
struct Timeline {
    std::size_t choices = 0;
    std::set<void*> chosenWith;                          // every buffer a choice was given
    std::set<void*> uploadedAfter;                       // uploaded after the first choice
    std::set<void*> nonInputs;                           // given to a choice, never uploaded
    std::map<void*, int> poisonedBefore, poisonedAfter;  // fills with the poison byte
};

Timeline timelineOf(const std::vector<Event>& events) {
    Timeline t;
    std::set<void*> uploaded;
    std::size_t first = events.size();
    for (std::size_t e = 0; e < events.size(); ++e)
        if (events[e].kind == Event::Choose) {
            ++t.choices;
            first = std::min(first, e);
            t.chosenWith.insert(events[e].buffers.begin(), events[e].buffers.end());
        }
    for (std::size_t e = 0; e < events.size(); ++e) {
        void* buffer = events[e].buffers.empty() ? nullptr : events[e].buffers.front();
        if (events[e].kind == Event::Upload) {
            uploaded.insert(buffer);
            if (e > first) t.uploadedAfter.insert(buffer);
        }
        if (events[e].kind == Event::Fill && events[e].byte == kPoisonByte)
            ++(e < first ? t.poisonedBefore : t.poisonedAfter)[buffer];
    }
    for (void* buffer : t.chosenWith)
        if (!uploaded.count(buffer)) t.nonInputs.insert(buffer);
    return t;
}

}  // namespace

TEST(BuildChoice, EachLaunchChoosesAfterTheUploadsWithItsBuffersAndTheOutputsArePoisonedAgain) {
    ChoosingBackend backend(true);
    Quiet quiet;
    const Result<RunReport> report = runPipeline(backend, twoLaunchOf4099(), quiet);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_EQ(report->variants.size(), 1u);
    EXPECT_TRUE(report->variants.front().check.ok);

    const Timeline t = timelineOf(backend.events);
    ASSERT_GE(kernelsOf("two_launch"), 2u);
    EXPECT_EQ(t.choices, kernelsOf("two_launch"));
    for (void* buffer : t.chosenWith)
        EXPECT_EQ(t.uploadedAfter.count(buffer), 0u) << "an input uploaded after a choice";
    ASSERT_FALSE(t.nonInputs.empty());
    for (void* buffer : t.nonInputs) {
        EXPECT_EQ(t.poisonedBefore.count(buffer) ? t.poisonedBefore.at(buffer) : 0, 1);
        EXPECT_EQ(t.poisonedAfter.count(buffer) ? t.poisonedAfter.at(buffer) : 0, 1);
    }
}

TEST(BuildChoice, NothingIsPoisonedAgainWhereNoChoiceLaunchedAnything) {
    ChoosingBackend backend(false);
    Quiet quiet;
    const Result<RunReport> report = runPipeline(backend, twoLaunchOf4099(), quiet);
    ASSERT_TRUE(report) << report.status().message();
    const Timeline t = timelineOf(backend.events);
    ASSERT_FALSE(t.nonInputs.empty());
    for (void* buffer : t.nonInputs) {
        EXPECT_EQ(t.poisonedBefore.count(buffer) ? t.poisonedBefore.at(buffer) : 0, 1);
        EXPECT_EQ(t.poisonedAfter.count(buffer), 0u);
    }
}

TEST(BuildChoice, AFailedChoiceFailsTheRunWithItsReason) {
    ChoosingBackend backend(Status(ErrorCode::DeviceError, "timing a kernel's builds: no GPU"));
    Quiet quiet;
    const Result<RunReport> report = runPipeline(backend, twoLaunchOf4099(), quiet);
    std::string reason = report ? std::string() : report.status().message();
    if (report)
        for (const VariantNotRun& notRun : report->variantsNotRun) reason += notRun.reason;
    EXPECT_NE(reason.find("timing a kernel's builds: no GPU"), std::string::npos) << reason;
}
