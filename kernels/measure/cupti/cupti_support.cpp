#include "measure/cupti/cupti_support.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <mutex>

namespace fusescope::cupti {

std::string resultText(CUptiResult result) {
    const char* name = nullptr;
    const char* message = nullptr;
    if (cuptiGetResultString(result, &name) != CUPTI_SUCCESS) name = nullptr;
    if (cuptiGetErrorMessage(result, &message) != CUPTI_SUCCESS) message = nullptr;
    std::string text = name ? name : "CUPTI error";
    text += " (" + std::to_string(static_cast<int>(result)) + ")";
    if (message && *message) text += ": " + std::string(message);
    return text;
}

CounterRefusal classify(CUptiResult result) {
    switch (result) {
        case CUPTI_SUCCESS:
            return CounterRefusal::None;
        case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
            return CounterRefusal::Privileges;
        case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        case CUPTI_ERROR_HARDWARE_BUSY:
        case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
            return CounterRefusal::ProfilerInUse;
        case CUPTI_ERROR_NOT_SUPPORTED:
        case CUPTI_ERROR_NOT_COMPATIBLE:
        case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_INVALID_CHIP_NAME:
            return CounterRefusal::NotSupported;
        case CUPTI_ERROR_INVALID_DEVICE:
            return CounterRefusal::NoDevice;
        default:
            return CounterRefusal::Other;
    }
}

Status check(CUptiResult result, const char* what) {
    if (result == CUPTI_SUCCESS) return Status::ok();
    const CounterRefusal refusal = classify(result);
    const std::string detail = std::string(what) + ": " + resultText(result);
    const ErrorCode code =
        refusal == CounterRefusal::Other ? ErrorCode::DeviceError : ErrorCode::DeviceUnavailable;
    std::string message = refusalReason(refusal, detail);
    if (const std::string advice = refusalAdvice(refusal); !advice.empty()) message += " " + advice;
    return Status(code, message);
}

Status checkDriver(CUresult result, const char* what) {
    if (result == CUDA_SUCCESS) return Status::ok();
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(result, &name) != CUDA_SUCCESS) name = "CUDA driver error";
    if (cuGetErrorString(result, &text) != CUDA_SUCCESS) text = "";
    return Status(ErrorCode::DeviceError, std::string(what) + " failed: " + name + " (" +
                                              std::to_string(static_cast<int>(result)) +
                                              "): " + text);
}

Result<CUcontext> currentContext() {
    if (Status s = checkDriver(cuInit(0), "cuInit"); !s) return s;
    CUcontext context = nullptr;
    if (Status s = checkDriver(cuCtxGetCurrent(&context), "cuCtxGetCurrent"); !s) return s;
    if (context) return context;
    // No context current on this thread yet: use device 0's primary context, as the runtime does.
    CUdevice device = 0;
    if (Status s = checkDriver(cuDeviceGet(&device, 0), "cuDeviceGet"); !s) return s;
    if (Status s =
            checkDriver(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
        !s)
        return s;
    if (Status s = checkDriver(cuCtxSetCurrent(context), "cuCtxSetCurrent"); !s) return s;
    return context;
}

Result<int> currentDeviceOrdinal() {
    Result<CUcontext> context = currentContext();
    if (!context) return context.status();
    CUdevice device = 0;
    if (Status s = checkDriver(cuCtxGetDevice(&device), "cuCtxGetDevice"); !s) return s;
    return static_cast<int>(device);
}

Result<std::string> initializeProfiler(int deviceIndex) {
    static std::once_flag once;
    static CUptiResult initialized = CUPTI_SUCCESS;
    std::call_once(once, [] {
        auto params = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
        initialized = cuptiProfilerInitialize(&params);
    });
    if (Status s = check(initialized, "cuptiProfilerInitialize"); !s) return s;
    auto chip = FUSESCOPE_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = static_cast<size_t>(deviceIndex);
    if (Status s = check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName"); !s) return s;
    return std::string(chip.pChipName ? chip.pChipName : "");
}

HostObject::~HostObject() {
    reset();
}

void HostObject::reset() {
    if (!object_) return;
    auto params = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    params.pHostObject = object_;
    // Nothing to report from teardown; the object is gone either way.
    (void)cuptiProfilerHostDeinitialize(&params);
    object_ = nullptr;
}

Status HostObject::initialize(CUpti_ProfilerType type, const std::string& chip,
                              const std::vector<std::uint8_t>& availability) {
    reset();
    auto params = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    params.profilerType = type;
    params.pChipName = chip.c_str();
    params.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    if (Status s = check(cuptiProfilerHostInitialize(&params), "cuptiProfilerHostInitialize"); !s)
        return s;
    object_ = params.pHostObject;
    return Status::ok();
}

Status HostObject::evaluate(const std::vector<std::uint8_t>& counterData, std::size_t index,
                            const std::vector<const char*>& metrics, double* values) const {
    auto params = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    params.pHostObject = object_;
    pointAtImage(params, counterData);
    params.rangeIndex = index;
    params.ppMetricNames = const_cast<const char**>(metrics.data());
    params.numMetrics = metrics.size();
    params.pMetricValues = values;
    return check(cuptiProfilerHostEvaluateToGpuValues(&params), "evaluating the counters");
}

Result<std::vector<std::uint8_t>> buildConfigImage(CUpti_ProfilerType type, const std::string& chip,
                                                   const std::vector<std::uint8_t>& availability,
                                                   const std::vector<const char*>& metrics,
                                                   std::size_t maxPasses) {
    HostObject host;
    if (Status s = host.initialize(type, chip, availability); !s) return s;
    auto add = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host.get();
    add.ppMetricNames = const_cast<const char**>(metrics.data());
    add.numMetrics = metrics.size();
    if (Status s = check(cuptiProfilerHostConfigAddMetrics(&add), "adding the metrics"); !s)
        return s;
    auto size = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = host.get();
    if (Status s = check(cuptiProfilerHostGetConfigImageSize(&size), "sizing the config image"); !s)
        return s;
    std::vector<std::uint8_t> image(size.configImageSize);
    auto get = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    get.pHostObject = host.get();
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    if (Status s = check(cuptiProfilerHostGetConfigImage(&get), "building the config image"); !s)
        return s;
    auto passes = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    passes.configImageSize = image.size();
    passes.pConfigImage = image.data();
    if (Status s = check(cuptiProfilerHostGetNumOfPasses(&passes), "counting passes"); !s) return s;
    if (passes.numOfPasses > maxPasses)
        return Status(ErrorCode::DeviceError,
                      "the metrics need " + std::to_string(passes.numOfPasses) +
                          " passes, at most " + std::to_string(maxPasses) + " are supported");
    return image;
}

}  // namespace fusescope::cupti
