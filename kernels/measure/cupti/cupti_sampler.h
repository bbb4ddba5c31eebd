#pragma once
// DRAM throughput over time (CUPTI PM sampling, two metrics) and kernel/allocation records
// (CUPTI Activity API), decoded through a small re-used counter-data image whenever the thread that
// runs the kernels polls. Decoding on a second thread while that thread allocates crashed inside
// libnvperf_host on the H200 (CUDA 13.0, driver 580): CUPTI is only ever called from one thread.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <cupti.h>
#include <cupti_pmsampling.h>

#include "measure/counter_provider.h"
#include "measure/cupti/cupti_support.h"

namespace fusescope::cupti {

class Sampler {
  public:
    Sampler() = default;
    ~Sampler();
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    Status start(const std::string& chip, std::int64_t intervalNs, SamplingCallback callback);
    Result<SamplingStats> stop();
    // Decodes every sample and record that is ready and delivers them as one batch.
    Status poll();
    bool running() const { return pm_ != nullptr; }

    // Called by CUPTI's buffer-completed callback (any thread).
    void addActivity(std::vector<ActivityRecord>&& records, std::uint64_t dropped);

  private:
    Status startActivity();
    void stopActivity();
    Status initializeImage();
    // Decodes into the image and evaluates new samples into `batch`; sets `full` when the image
    // must be re-initialized before more can be decoded.
    Status decodeInto(SamplingBatch& batch, bool& full);
    void teardown();

    SamplingCallback callback_;
    CUpti_PmSampling_Object* pm_ = nullptr;
    std::string chip_;                        // outlives host_, which points into it
    std::vector<std::uint8_t> availability_;  // likewise
    std::vector<std::uint8_t> config_;        // PM sampling points into it until disabled
    HostObject host_;
    std::vector<std::uint8_t> counterData_;
    std::size_t evaluated_ = 0;  // samples of the current image already delivered
    bool firstDropped_ = false;
    double decodeCpuSeconds_ = 0.0;
    std::uint64_t samples_ = 0;
    std::uint64_t overflows_ = 0;
    bool activityOn_ = false;

    std::mutex activityMutex_;
    std::vector<ActivityRecord> pendingActivity_;
    std::uint64_t droppedRecords_ = 0;
};

}  // namespace fusescope::cupti
