#include "measure/cupti/cupti_sampler.h"

#include <cupti_activity.h>
#include <cupti_profiler_host.h>
#include <cupti_target.h>
#include <time.h>

#include <chrono>
#include <cstdlib>

namespace fusescope::cupti {
namespace {

const std::vector<const char*>& sampledMetrics() {
    static const std::vector<const char*> metrics = {"dram__bytes_read.sum",
                                                     "dram__bytes_write.sum"};
    return metrics;
}

constexpr std::size_t kImageSamples = 2000;  // about 6 MB for two metrics
// Samples wait here between polls; a variant's input upload at N = 2^28 lasts ~0.2 s (20,000
// samples at 10 us), and 128 MB held the probe's 60,000.
constexpr std::size_t kHardwareBuffer = 128u << 20;
constexpr std::size_t kActivityBufferBytes = 8u << 20;

// CUPTI's activity callbacks are plain functions: they reach the running sampler through this.
std::atomic<Sampler*> activeSampler{nullptr};

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
    *size = kActivityBufferBytes;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kActivityBufferBytes));
    *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t stream, uint8_t* buffer, size_t,
                              size_t validSize) {
    std::vector<ActivityRecord> records;
    CUpti_Activity* record = nullptr;
    while (buffer && cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
            record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            ActivityRecord out;
            out.kind = ActivityRecord::Kind::Kernel;
            out.name = kernel->name ? kernel->name : "kernel";
            out.startNs = static_cast<std::int64_t>(kernel->start);
            out.endNs = static_cast<std::int64_t>(kernel->end);
            records.push_back(std::move(out));
        } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMORY2) {
            const auto* memory = reinterpret_cast<const CUpti_ActivityMemory4*>(record);
            ActivityRecord out;
            out.kind =
                memory->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION
                    ? ActivityRecord::Kind::Allocate
                    : ActivityRecord::Kind::Free;
            out.startNs = out.endNs = static_cast<std::int64_t>(memory->timestamp);
            out.bytes = memory->bytes;
            out.address = memory->address;
            records.push_back(std::move(out));
        }
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS) dropped = 0;
    std::free(buffer);
    if (Sampler* sampler = activeSampler.load()) sampler->addActivity(std::move(records), dropped);
}

double threadCpuSeconds() {
    timespec now{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0.0;
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

Sampler::~Sampler() {
    if (running()) (void)stop();
}

void Sampler::addActivity(std::vector<ActivityRecord>&& records, std::uint64_t dropped) {
    std::lock_guard lock(activityMutex_);
    for (auto& record : records) pendingActivity_.push_back(std::move(record));
    droppedRecords_ += dropped;
}

Status Sampler::startActivity() {
    // Once per process: the callbacks stay registered and find the running sampler (if any).
    static const CUptiResult registered =
        cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (Status s = check(registered, "registering Activity API buffers"); !s) return s;
    if (Status s = check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                         "enabling kernel activity records");
        !s)
        return s;
    if (Status s = check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2),
                         "enabling allocation activity records");
        !s) {
        (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        return s;
    }
    activityOn_ = true;
    return Status::ok();
}

void Sampler::stopActivity() {
    if (!activityOn_) return;
    // Errors here would only lose the last records; stop() polls once more after it.
    (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMORY2);
    activityOn_ = false;
}

Status Sampler::initializeImage() {
    auto init = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    init.pPmSamplingObject = pm_;
    init.counterDataSize = counterData_.size();
    init.pCounterData = counterData_.data();
    evaluated_ = 0;
    return check(cuptiPmSamplingCounterDataImageInitialize(&init),
                 "initializing the PM sampling image");
}

Status Sampler::start(const std::string& chip, std::int64_t intervalNs, SamplingCallback callback) {
    if (running()) return Status(ErrorCode::InvalidArgument, "sampling is already running");
    if (Status s = validateSamplingInterval(intervalNs); !s) return s;
    callback_ = std::move(callback);
    samples_ = overflows_ = droppedRecords_ = 0;
    decodeCpuSeconds_ = 0.0;
    firstDropped_ = false;

    // The GPU the backend of this thread chose (several GPUs in one host).
    Result<int> device = currentDeviceOrdinal();
    if (!device) return device.status();
    auto availability = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
    availability.deviceIndex = static_cast<size_t>(*device);
    if (Status s = check(cuptiPmSamplingGetCounterAvailability(&availability),
                         "reading the PM sampling counter availability");
        !s)
        return s;
    // The chip name, the availability image and the config image stay members while sampling
    // runs: CUPTI keeps pointers to them. With the config image freed when start() returned,
    // the first decode crashed in libnvperf_host on the H200.
    chip_ = chip;
    availability_.assign(availability.counterAvailabilityImageSize, 0);
    availability.pCounterAvailabilityImage = availability_.data();
    if (Status s = check(cuptiPmSamplingGetCounterAvailability(&availability),
                         "reading the PM sampling counter availability");
        !s)
        return s;
    Result<std::vector<std::uint8_t>> config = buildConfigImage(
        CUPTI_PROFILER_TYPE_PM_SAMPLING, chip_, availability_, sampledMetrics(), 1);
    if (!config) return config.status();
    config_ = std::move(*config);
    if (Status s = host_.initialize(CUPTI_PROFILER_TYPE_PM_SAMPLING, chip_, availability_); !s)
        return s;

    auto enable = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_Enable_Params);
    enable.deviceIndex = static_cast<size_t>(*device);
    if (Status s = check(cuptiPmSamplingEnable(&enable), "enabling PM sampling"); !s) return s;
    pm_ = enable.pPmSamplingObject;

    auto setConfig = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_SetConfig_Params);
    setConfig.pPmSamplingObject = pm_;
    setConfig.configSize = config_.size();
    setConfig.pConfig = config_.data();
    setConfig.hardwareBufferSize = kHardwareBuffer;
    setConfig.samplingInterval = static_cast<std::uint64_t>(intervalNs);
    setConfig.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    setConfig.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    if (Status s = check(cuptiPmSamplingSetConfig(&setConfig), "configuring PM sampling"); !s) {
        teardown();
        return s;
    }
    auto size = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
    size.pPmSamplingObject = pm_;
    size.pMetricNames = const_cast<const char**>(sampledMetrics().data());
    size.numMetrics = sampledMetrics().size();
    size.maxSamples = kImageSamples;
    if (Status s = check(cuptiPmSamplingGetCounterDataSize(&size), "sizing the PM sampling image");
        !s) {
        teardown();
        return s;
    }
    counterData_.assign(size.counterDataSize, 0);
    if (Status s = initializeImage(); !s) {
        teardown();
        return s;
    }
    activeSampler = this;
    if (Status s = startActivity(); !s) {
        teardown();
        return s;
    }
    auto startParams = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_Start_Params);
    startParams.pPmSamplingObject = pm_;
    if (Status s = check(cuptiPmSamplingStart(&startParams), "starting PM sampling"); !s) {
        teardown();
        return s;
    }
    return Status::ok();
}

Status Sampler::decodeInto(SamplingBatch& batch, bool& full) {
    full = false;
    for (int attempt = 0; attempt < 16; ++attempt) {
        auto decode = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_DecodeData_Params);
        decode.pPmSamplingObject = pm_;
        pointAtImage(decode, counterData_);
        if (Status s = check(cuptiPmSamplingDecodeData(&decode), "decoding PM samples"); !s)
            return s;
        if (decode.overflow) ++overflows_;
        if (decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) {
            full = true;
            break;
        }
        if (decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS) break;
    }
    auto info = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    pointAtImage(info, counterData_);
    if (Status s = check(cuptiPmSamplingGetCounterDataInfo(&info), "reading PM sample counts"); !s)
        return s;
    for (; evaluated_ < info.numCompletedSamples; ++evaluated_) {
        auto sample = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
        sample.pPmSamplingObject = pm_;
        pointAtImage(sample, counterData_);
        sample.sampleIndex = evaluated_;
        if (Status s =
                check(cuptiPmSamplingCounterDataGetSampleInfo(&sample), "reading a PM sample");
            !s)
            return s;
        double values[2] = {};
        if (Status s = host_.evaluate(counterData_, evaluated_, sampledMetrics(), values); !s)
            return s;
        // The session's first sample spans from configuration to start: not a real interval.
        if (!firstDropped_) {
            firstDropped_ = true;
            continue;
        }
        BandwidthSample out;
        out.startNs = static_cast<std::int64_t>(sample.startTimestamp);
        out.endNs = static_cast<std::int64_t>(sample.endTimestamp);
        // Kept as rates (runner.h): an empty interval moved nothing measurable.
        const double seconds = out.durationSeconds();
        out.readBytesPerSecond = out.endNs > out.startNs ? values[0] / seconds : 0.0;
        out.writeBytesPerSecond = out.endNs > out.startNs ? values[1] / seconds : 0.0;
        batch.samples.push_back(out);
    }
    return Status::ok();
}

Status Sampler::poll() {
    if (!running()) return Status(ErrorCode::InvalidArgument, "sampling is not running");
    const double cpuStart = threadCpuSeconds();
    // Completed activity buffers only; a record still being written comes with the next poll.
    if (activityOn_) (void)cuptiActivityFlushAll(0);
    SamplingBatch batch;
    Status status = Status::ok();
    // A full image is delivered, re-initialized and decoded again, until the records run out.
    for (int image = 0; image < 64 && status; ++image) {
        bool full = false;
        status = decodeInto(batch, full);
        if (!status || !full) break;
        status = initializeImage();
    }
    {
        std::lock_guard lock(activityMutex_);
        batch.activity.swap(pendingActivity_);
    }
    samples_ += batch.samples.size();
    decodeCpuSeconds_ += threadCpuSeconds() - cpuStart;
    if (!batch.samples.empty() || !batch.activity.empty()) callback_(std::move(batch));
    return status;
}

Result<SamplingStats> Sampler::stop() {
    if (!running()) return Status(ErrorCode::InvalidArgument, "sampling is not running");
    auto stopParams = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
    stopParams.pPmSamplingObject = pm_;
    Status result = check(cuptiPmSamplingStop(&stopParams), "stopping PM sampling");
    // The last samples and records: a forced flush hands over the buffers still being filled.
    if (activityOn_) (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (result) result = poll();
    teardown();
    if (!result) return result;
    SamplingStats stats;
    stats.samples = samples_;
    stats.decodeCpuSeconds = decodeCpuSeconds_;
    stats.bufferOverflows = overflows_;
    {
        std::lock_guard lock(activityMutex_);
        stats.droppedRecords = droppedRecords_;
    }
    return stats;
}

void Sampler::teardown() {
    stopActivity();
    activeSampler = nullptr;
    if (pm_) {
        auto disable = FUSESCOPE_CUPTI_PARAMS(CUpti_PmSampling_Disable_Params);
        disable.pPmSamplingObject = pm_;
        (void)cuptiPmSamplingDisable(&disable);  // teardown: nothing left to report to
        pm_ = nullptr;
    }
    host_.reset();
}

}  // namespace fusescope::cupti
