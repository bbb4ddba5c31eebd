#include "measure/cupti/cupti_range_counters.h"

#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>

#include "measure/cupti/cupti_support.h"

namespace fusescope::cupti {
namespace {

// Six metrics take a few passes on the H200; far more means something is wrong.
constexpr std::size_t kMaxPasses = 64;

// Disables the Range Profiler on every path out of measureRanges.
class RangeProfilerSession {
  public:
    ~RangeProfilerSession() {
        if (!object_) return;
        auto params = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
        params.pRangeProfilerObject = object_;
        (void)cuptiRangeProfilerDisable(&params);  // a destructor has no one to report to
    }
    Status enable(CUcontext context) {
        auto params = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
        params.ctx = context;
        if (Status s = check(cuptiRangeProfilerEnable(&params), "enabling the Range Profiler"); !s)
            return s;
        object_ = params.pRangeProfilerObject;
        return Status::ok();
    }
    CUpti_RangeProfiler_Object* get() const { return object_; }

  private:
    CUpti_RangeProfiler_Object* object_ = nullptr;
};

}  // namespace

const std::vector<const char*>& rangeMetrics() {
    static const std::vector<const char*> metrics = {
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "lts__t_sectors_srcunit_tex_op_read.sum",
        "lts__t_sectors_srcunit_tex_op_write.sum"};
    return metrics;
}

Result<std::vector<std::uint8_t>> rangeCounterAvailability() {
    Result<CUcontext> context = currentContext();
    if (!context) return context.status();
    auto params = FUSESCOPE_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    params.ctx = *context;
    if (Status s =
            check(cuptiProfilerGetCounterAvailability(&params), "reading the counter availability");
        !s)
        return s;
    std::vector<std::uint8_t> image(params.counterAvailabilityImageSize);
    params.pCounterAvailabilityImage = image.data();
    if (Status s =
            check(cuptiProfilerGetCounterAvailability(&params), "reading the counter availability");
        !s)
        return s;
    return image;
}

Result<std::vector<KernelCounters>> measureRanges(const std::string& chip,
                                                  const std::vector<std::uint8_t>& availability,
                                                  const std::function<Status()>& launch,
                                                  const std::function<Status()>& evictCaches) {
    const std::vector<const char*>& metrics = rangeMetrics();
    Result<std::vector<std::uint8_t>> config = buildConfigImage(
        CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip, availability, metrics, metrics.size());
    if (!config) return config.status();
    Result<CUcontext> context = currentContext();
    if (!context) return context.status();

    RangeProfilerSession session;
    if (Status s = session.enable(*context); !s) return s;
    // Room for the kernels one library call may start; more show as dropped ranges.
    constexpr std::size_t maxRanges = 64;
    auto size = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = session.get();
    size.pMetricNames = const_cast<const char**>(metrics.data());
    size.numMetrics = metrics.size();
    size.maxNumOfRanges = maxRanges;
    size.maxNumRangeTreeNodes = maxRanges;
    if (Status s = check(cuptiRangeProfilerGetCounterDataSize(&size), "sizing the counter data");
        !s)
        return s;
    std::vector<std::uint8_t> counterData(size.counterDataSize);
    auto init = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = session.get();
    init.counterDataSize = counterData.size();
    init.pCounterData = counterData.data();
    if (Status s = check(cuptiRangeProfilerCounterDataImageInitialize(&init),
                         "initializing the counter data");
        !s)
        return s;
    auto setConfig = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    setConfig.pRangeProfilerObject = session.get();
    setConfig.configSize = config->size();
    setConfig.pConfig = config->data();
    setConfig.counterDataImageSize = counterData.size();
    setConfig.pCounterDataImage = counterData.data();
    setConfig.range = CUPTI_AutoRange;
    setConfig.replayMode = CUPTI_UserReplay;
    setConfig.maxRangesPerPass = maxRanges;
    setConfig.numNestingLevels = 1;
    setConfig.minNestingLevel = 1;
    setConfig.passIndex = 0;
    setConfig.targetNestingLevel = 0;
    if (Status s = check(cuptiRangeProfilerSetConfig(&setConfig), "configuring the Range Profiler");
        !s)
        return s;

    // Each pass starts from the same state: the launch's buffers as they were (its kernels only
    // read their inputs and overwrite their outputs) and an L2 with nothing dirty in it. The
    // eviction runs after Start, as the first range of the pass, so that whatever the profiler
    // itself writes when a pass starts is cleared too; its range is left out below.
    for (std::size_t pass = 0;; ++pass) {
        if (pass == kMaxPasses)
            return Status(ErrorCode::DeviceError, "the Range Profiler asked for more than " +
                                                      std::to_string(kMaxPasses) +
                                                      " passes over one launch");
        auto start = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
        start.pRangeProfilerObject = session.get();
        if (Status s = check(cuptiRangeProfilerStart(&start), "starting the Range Profiler"); !s)
            return s;
        Status launched = evictCaches();
        if (launched) launched = launch();
        auto stop = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
        stop.pRangeProfilerObject = session.get();
        const Status stopped = check(cuptiRangeProfilerStop(&stop), "stopping the Range Profiler");
        if (!launched) return launched;
        if (!stopped) return stopped;
        if (stop.isAllPassSubmitted) break;
    }

    auto decode = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = session.get();
    if (Status s = check(cuptiRangeProfilerDecodeData(&decode), "decoding the counters"); !s)
        return s;
    auto info = FUSESCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    pointAtImage(info, counterData);
    if (Status s = check(cuptiRangeProfilerGetCounterDataInfo(&info), "reading the ranges"); !s)
        return s;
    // The eviction's range, then at least one of the launch's.
    if (decode.numOfRangeDropped > 0 || info.numTotalRanges < 2)
        return Status(ErrorCode::DeviceError, "the Range Profiler recorded " +
                                                  std::to_string(info.numTotalRanges) +
                                                  " kernel ranges with the cache eviction's (" +
                                                  std::to_string(decode.numOfRangeDropped) +
                                                  " dropped); counters are not guessed");

    HostObject host;
    if (Status s = host.initialize(CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip, availability); !s)
        return s;
    std::vector<KernelCounters> ranges;
    for (std::size_t range = 1; range < info.numTotalRanges; ++range) {
        double values[6] = {};
        if (Status s = host.evaluate(counterData, range, metrics, values); !s) return s;
        KernelCounters counters;
        counters.dramBytesRead = values[0];
        counters.dramBytesWritten = values[1];
        counters.sectorsRead = values[2];
        counters.sectorsWritten = values[3];
        counters.l2SectorsRead = values[4];
        counters.l2SectorsWritten = values[5];
        ranges.push_back(counters);
    }
    return ranges;
}

Result<KernelCounters> measureLaunch(const std::string& chip,
                                     const std::vector<std::uint8_t>& availability,
                                     const std::function<Status()>& launch,
                                     const std::function<Status()>& evictCaches) {
    Result<std::vector<KernelCounters>> ranges =
        measureRanges(chip, availability, launch, evictCaches);
    if (!ranges) return ranges.status();
    KernelCounters summed = zeroCounters(static_cast<std::uint32_t>(ranges->size()));
    for (const KernelCounters& range : *ranges) addCounters(summed, range);
    return summed;
}

}  // namespace fusescope::cupti
