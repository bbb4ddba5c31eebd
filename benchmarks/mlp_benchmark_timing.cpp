#include "mlp_benchmark_timing.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "pipelines/mlp/mlp_host_data.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp::bench {
namespace {

// Device memory freed when it goes out of scope.
struct DeviceBuffer {
    void* pointer = nullptr;
    ~DeviceBuffer() {
        if (pointer != nullptr) (void)cudaFree(pointer);
    }
};

}  // namespace

Result<Timing> timeMedian(MlpCudaContext& context, int warmups, int repeats,
                          const std::function<Status()>& enqueue) {
    auto* stream = static_cast<cudaStream_t>(context.stream());
    for (int i = 0; i < warmups; ++i)
        if (Status s = enqueue(); !s) return s;
    std::vector<cudaEvent_t> events(static_cast<std::size_t>(2 * repeats), nullptr);
    Status status;
    for (cudaEvent_t& e : events)
        if (status) status = cudaStatus(cudaEventCreate(&e), "cudaEventCreate");
    for (int i = 0; status && i < repeats; ++i) {
        status = cudaStatus(cudaEventRecord(events[2 * i], stream), "cudaEventRecord");
        if (status) status = enqueue();
        if (status)
            status = cudaStatus(cudaEventRecord(events[2 * i + 1], stream), "cudaEventRecord");
    }
    if (status) status = cudaStatus(cudaStreamSynchronize(stream), "timed repeats");
    std::vector<double> us;
    for (int i = 0; status && i < repeats; ++i) {
        float ms = 0;
        status = cudaStatus(cudaEventElapsedTime(&ms, events[2 * i], events[2 * i + 1]),
                            "cudaEventElapsedTime");
        us.push_back(ms * 1000.0);
    }
    for (cudaEvent_t e : events)
        if (e != nullptr) (void)cudaEventDestroy(e);
    if (!status) return status;
    std::sort(us.begin(), us.end());
    const std::size_t n = us.size();
    const double median = n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
    return Timing{median, us.front(), repeats};
}

Result<double> copyRoofGBs(MlpCudaContext& context, std::size_t bytes, int repeats) {
    DeviceBuffer from, to;
    if (Status s = cudaStatus(cudaMalloc(&from.pointer, bytes), "cudaMalloc (copy source)"); !s)
        return s;
    if (Status s = cudaStatus(cudaMalloc(&to.pointer, bytes), "cudaMalloc (copy target)"); !s)
        return s;
    if (Status s = cudaStatus(cudaMemset(from.pointer, 1, bytes), "cudaMemset"); !s) return s;
    if (Status s = cudaStatus(cudaDeviceSynchronize(), "cudaMemset"); !s) return s;
    auto* stream = static_cast<cudaStream_t>(context.stream());
    auto timing = timeMedian(context, 3, repeats, [&] {
        return cudaStatus(
            cudaMemcpyAsync(to.pointer, from.pointer, bytes, cudaMemcpyDeviceToDevice, stream),
            "cudaMemcpyAsync (device to device)");
    });
    if (!timing) return timing.status();
    return 2.0 * static_cast<double>(bytes) / (timing->medianUs * 1e3);
}

Result<double> gemmRoofTflops(MlpCudaContext& context, std::int64_t n, int repeats) {
    HostMatrix host(DType::Bfloat16, n, n);
    host.fillRandom(7, 1.0f, 0);
    DeviceBuffer a, b, c;
    for (DeviceBuffer* buffer : {&a, &b, &c})
        if (Status s = cudaStatus(cudaMalloc(&buffer->pointer, host.bytes()), "cudaMalloc (GEMM)");
            !s)
            return s;
    for (DeviceBuffer* buffer : {&a, &b})
        if (Status s = cudaStatus(
                cudaMemcpy(buffer->pointer, host.data(), host.bytes(), cudaMemcpyHostToDevice),
                "upload GEMM operand");
            !s)
            return s;
    if (Status s = cudaStatus(cudaDeviceSynchronize(), "upload GEMM operands"); !s) return s;
    auto timing = timeMedian(context, 3, repeats, [&] {
        return gemmRowMajorABt(context, DType::Bfloat16, a.pointer, n, b.pointer, n, c.pointer, n,
                               n, n, n);
    });
    if (!timing) return timing.status();
    return 2.0 * double(n) * double(n) * double(n) / (timing->medianUs * 1e6);
}

}  // namespace fusescope::mlp::bench
