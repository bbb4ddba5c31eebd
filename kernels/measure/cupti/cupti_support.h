#pragma once
// Small helpers for the CUPTI module: every CUPTI return code becomes a Status in words, the
// CUDA context the runtime uses, and profiler host objects that build config images.
#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_host.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "measure/counter_refusal.h"

namespace fusescope::cupti {

// A zeroed CUPTI parameter struct with its size set, as every CUPTI call wants it.
template <typename Params>
Params makeParams(std::size_t structSize) {
    Params params{};
    params.structSize = structSize;
    return params;
}

// makeParams with the size CUPTI defines for `Params` as Params_STRUCT_SIZE: a macro, since only
// the preprocessor can name that constant from the type's name.
#define FUSESCOPE_CUPTI_PARAMS(Params) ::fusescope::cupti::makeParams<Params>(Params##_STRUCT_SIZE)

// Points a CUPTI parameter struct at a counter-data image.
template <typename Params, typename Image>
void pointAtImage(Params& params, Image& image) {
    params.pCounterDataImage = image.data();
    params.counterDataImageSize = image.size();
}

// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): <CUPTI's message>"
std::string resultText(CUptiResult result);
CounterRefusal classify(CUptiResult result);
// OK for CUPTI_SUCCESS, else a Status naming `what` and the refusal in plain words.
Status check(CUptiResult result, const char* what);
Status checkDriver(CUresult result, const char* what);

// The context the CUDA runtime made current on this thread (its primary context), retained.
Result<CUcontext> currentContext();
// The ordinal of the device of that context: the GPU the CUDA backend of this thread chose.
Result<int> currentDeviceOrdinal();

// cuptiProfilerInitialize once per process, and the device's chip name ("GH100").
Result<std::string> initializeProfiler(int deviceIndex);

// RAII for CUpti_Profiler_Host_Object.
class HostObject {
  public:
    HostObject() = default;
    ~HostObject();
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    Status initialize(CUpti_ProfilerType type, const std::string& chip,
                      const std::vector<std::uint8_t>& availability);
    CUpti_Profiler_Host_Object* get() const { return object_; }
    // The metrics' values for one range (Range Profiler) or sample (PM sampling) of a decoded
    // counter-data image, into `values` (one per metric).
    Status evaluate(const std::vector<std::uint8_t>& counterData, std::size_t index,
                    const std::vector<const char*>& metrics, double* values) const;
    void reset();

  private:
    CUpti_Profiler_Host_Object* object_ = nullptr;
};

// A config image for `metrics`; fails when they need more than `maxPasses` passes.
Result<std::vector<std::uint8_t>> buildConfigImage(CUpti_ProfilerType type, const std::string& chip,
                                                   const std::vector<std::uint8_t>& availability,
                                                   const std::vector<const char*>& metrics,
                                                   std::size_t maxPasses);

}  // namespace fusescope::cupti
