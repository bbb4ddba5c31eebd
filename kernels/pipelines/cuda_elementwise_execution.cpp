// The elementwise kernels on the GPU (affine.cu, swiglu.cu): one thread per float4 group or
// resident blocks looping over N (CudaKernel::residentGrid), blocks of kCudaBlockSize threads.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <string>

#include "pipelines/cuda_executions.h"
#include "pipelines/cuda_kernels.h"
#include "pipelines/elementwise_family.h"
#include "platform/cuda_error.h"

namespace fusescope {
namespace {

constexpr std::uintptr_t kVectorAlignment = 16;  // float4 loads and stores
// A generated fused kernel takes up to 8 inputs and its outputs.
constexpr int kMaxPointerArgs = 32;

// What is learnt about one kernel once, when the backend loads it.
struct KernelSlot {
    CudaKernel kernel;
    cudaFuncAttributes attributes{};
    int blocksPerMultiprocessor = 0;  // resident blocks of kCudaBlockSize threads
};

class ElementwiseCudaExecution final : public KernelExecution {
  public:
    explicit ElementwiseCudaExecution(const CudaElementwiseEntry& entry) {
        slots_[0].kernel = entry.scalar;
        slots_[1].kernel = entry.vector;
    }

    Status load(const ExecutionTarget& target) override {
        (void)target;
        for (KernelSlot& slot : slots_) {
            if (!slot.kernel.function || slot.kernel.pointerArgs > kMaxPointerArgs)
                return Status(ErrorCode::DeviceError,
                              std::string("the CUDA kernel table has no usable entry for ") +
                                  slot.kernel.name);
            const std::string action = std::string("loading the CUDA kernel ") + slot.kernel.name;
            if (Status s = cudaStatus(cudaFuncGetAttributes(&slot.attributes, slot.kernel.function),
                                      action);
                !s)
                return s;
            if (Status s = cudaStatus(
                    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                        &slot.blocksPerMultiprocessor, slot.kernel.function, kCudaBlockSize, 0),
                    action);
                !s)
                return s;
            if (slot.blocksPerMultiprocessor < 1)
                return Status(ErrorCode::DeviceError, action + ": it cannot run with " +
                                                          std::to_string(kCudaBlockSize) +
                                                          " threads per block");
        }
        return Status::ok();
    }

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const int width = call.problem->tuningValue(kVectorWidthTuning);
        const KernelSlot* slot = slotFor(width);
        if (!slot)
            return Status(
                ErrorCode::InvalidArgument,
                "no CUDA kernel " + call.kernelName + " for vector width " + std::to_string(width));
        if (static_cast<int>(call.buffers.size()) != slot->kernel.pointerArgs)
            return Status(ErrorCode::InvalidArgument, std::string(slot->kernel.name) + " takes " +
                                                          std::to_string(slot->kernel.pointerArgs) +
                                                          " buffers, not " +
                                                          std::to_string(call.buffers.size()));
        std::array<void*, kMaxPointerArgs> pointers{};
        for (int a = 0; a < slot->kernel.pointerArgs; ++a) {
            pointers[a] = call.buffers[a];
            const auto address = reinterpret_cast<std::uintptr_t>(pointers[a]);
            if (address == 0)
                return Status(ErrorCode::InvalidArgument, std::string(slot->kernel.name) +
                                                              ": buffer argument " +
                                                              std::to_string(a) + " is null");
            if (width > 1 && address % kVectorAlignment != 0)
                return Status(ErrorCode::InvalidArgument,
                              std::string(slot->kernel.name) + ": buffer argument " +
                                  std::to_string(a) +
                                  " is not 16-byte aligned, which 16-byte loads need");
        }
        // cudaLaunchKernel takes the address of each parameter: the buffer pointers, then N.
        std::uint64_t n = call.problem->dimension(kElementCountDimension);
        std::array<void*, kMaxPointerArgs + 1> parameters{};
        for (int a = 0; a < slot->kernel.pointerArgs; ++a) parameters[a] = &pointers[a];
        parameters[slot->kernel.pointerArgs] = &n;
        const dim3 grid(gridSize(*slot, width, n, target));
        const dim3 block(kCudaBlockSize);
        cudaError_t error = cudaLaunchKernel(slot->kernel.function, grid, block, parameters.data(),
                                             0, static_cast<cudaStream_t>(target.stream));
        if (error == cudaSuccess) error = cudaGetLastError();
        return cudaStatus(error, std::string("launching ") + slot->kernel.name);
    }

    KernelResources resources(const ExecutionTarget& target, const KernelCall& call) override {
        const int width = call.problem->tuningValue(kVectorWidthTuning);
        const KernelSlot* slot = slotFor(width);
        if (!slot || slot->blocksPerMultiprocessor == 0) return {};
        KernelResources resources;
        resources.known = true;
        resources.registersPerThread = slot->attributes.numRegs;
        resources.sharedBytesPerBlock = static_cast<int>(slot->attributes.sharedSizeBytes);
        resources.localBytesPerThread = static_cast<int>(slot->attributes.localSizeBytes);
        resources.blockSize = kCudaBlockSize;
        resources.gridSize = static_cast<int>(
            gridSize(*slot, width, call.problem->dimension(kElementCountDimension), target));
        resources.theoreticalOccupancy =
            static_cast<double>(slot->blocksPerMultiprocessor * kCudaBlockSize) /
            static_cast<double>(std::max(1, target.maxThreadsPerMultiprocessor));
        return resources;
    }

  private:
    const KernelSlot* slotFor(int width) const {
        const int index = vectorWidthIndex(width);
        return index < 0 ? nullptr : &slots_[static_cast<std::size_t>(index)];
    }

    // Blocks for n elements: at width 4 one thread per float4 group (the grid-stride loops then
    // run once); at width 1, or for a kernel that asks for it (CudaKernel::residentGrid), only
    // the blocks that are resident at its occupancy, and the loops sweep the array. Never more
    // blocks than there are work items.
    static unsigned gridSize(const KernelSlot& slot, int vectorWidth, std::uint64_t n,
                             const ExecutionTarget& target) {
        // Width 4: one thread per float4 group, and the 0-3 tail elements go to the first threads.
        const auto width = static_cast<std::uint64_t>(vectorWidth);
        const std::uint64_t workItems = width > 1 ? std::max(n / width, n % width) : n;
        const std::uint64_t needed = (workItems + kCudaBlockSize - 1) / kCudaBlockSize;
        const std::uint64_t resident = static_cast<std::uint64_t>(slot.blocksPerMultiprocessor) *
                                       static_cast<std::uint64_t>(target.multiprocessors);
        constexpr std::uint64_t kMaxGridX = 0x7fffffff;  // beyond it the loops take the rest
        const bool looping = slot.kernel.residentGrid || vectorWidth == 1;
        const std::uint64_t limit = looping ? resident : kMaxGridX;
        return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(needed, limit)));
    }

    std::array<KernelSlot, kSupportedVectorWidths.size()> slots_{};
};

}  // namespace

std::unique_ptr<KernelExecution> makeElementwiseCudaExecution(const CudaElementwiseEntry& entry) {
    return std::make_unique<ElementwiseCudaExecution>(entry);
}

void addElementwiseCudaExecutions(ExecutionCatalog& catalog,
                                  std::span<const CudaElementwiseEntry> entries) {
    for (const CudaElementwiseEntry& entry : entries)
        catalog.emplace(entry.execution, makeElementwiseCudaExecution(entry));
}

}  // namespace fusescope
