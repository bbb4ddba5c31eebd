#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <memory>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "runtime/cuda_error.h"

namespace fusescope::mlp {
namespace {

struct DeviceFacts {
    int major = 0, minor = 0;
    int sharedOptIn = 0;
    int maxThreadsPerMultiprocessor = 0;
    std::string driver;
};

Result<DeviceFacts> currentDevice() {
    DeviceFacts facts;
    int device = 0, driver = 0;
    if (Status s = cudaStatus(cudaGetDevice(&device), "cudaGetDevice"); !s) return s;
    if (Status s = cudaStatus(
            cudaDeviceGetAttribute(&facts.major, cudaDevAttrComputeCapabilityMajor, device),
            "cudaDeviceGetAttribute (compute capability)");
        !s)
        return s;
    if (Status s = cudaStatus(
            cudaDeviceGetAttribute(&facts.minor, cudaDevAttrComputeCapabilityMinor, device),
            "cudaDeviceGetAttribute (compute capability)");
        !s)
        return s;
    if (Status s =
            cudaStatus(cudaDeviceGetAttribute(&facts.sharedOptIn,
                                              cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                       "cudaDeviceGetAttribute (shared memory per block)");
        !s)
        return s;
    if (Status s =
            cudaStatus(cudaDeviceGetAttribute(&facts.maxThreadsPerMultiprocessor,
                                              cudaDevAttrMaxThreadsPerMultiProcessor, device),
                       "cudaDeviceGetAttribute (threads per SM)");
        !s)
        return s;
    if (Status s = cudaStatus(cudaDriverGetVersion(&driver), "cudaDriverGetVersion"); !s) return s;
    facts.driver = std::to_string(driver);
    return facts;
}

// Loaded modules by cache key; never unloaded (kernels may be queued on a stream).
std::map<std::string, std::unique_ptr<LessonTiledKernel>>& loaded() {
    static std::map<std::string, std::unique_ptr<LessonTiledKernel>> kernels;
    return kernels;
}

}  // namespace

Result<CompileRequest> lessonTiledRequestForDevice(const LessonTiles& tiles, MlpDtype dtype) {
    Result<DeviceFacts> device = currentDevice();
    if (!device) return device.status();
    setModuleCacheDriverVersion(device->driver);
    const int stages =
        lessonTiledStages(tiles, dtype, static_cast<std::uint64_t>(device->sharedOptIn));
    return lessonTiledCompileRequest(tiles, dtype, stages, device->major, device->minor);
}

Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, MlpDtype dtype) {
    Result<DeviceFacts> device = currentDevice();
    if (!device) return device.status();
    const int stages =
        lessonTiledStages(tiles, dtype, static_cast<std::uint64_t>(device->sharedOptIn));
    Result<CompileRequest> request = lessonTiledRequestForDevice(tiles, dtype);
    if (!request) return request.status();
    Result<ModuleCompiler*> compiler = runtimeCompiler();
    if (!compiler) return compiler.status();
    const std::string key = moduleCache().keyOf(**compiler, *request);
    if (auto found = loaded().find(key); found != loaded().end()) return found->second.get();
    Result<CompiledModule> module = moduleCache().get(**compiler, *request);
    if (!module) return module.status();
    cudaLibrary_t library = nullptr;
    if (Status s = cudaStatus(cudaLibraryLoadData(&library, module->image.data(), nullptr, nullptr,
                                                  0, nullptr, nullptr, 0),
                              "cudaLibraryLoadData (run-time compiled lesson kernel)");
        !s)
        return s;
    auto kernel = std::make_unique<LessonTiledKernel>();
    cudaKernel_t full = nullptr, edge = nullptr;
    if (Status s = cudaStatus(
            cudaLibraryGetKernel(&full, library, std::string(kLessonTiledFullKernel).c_str()),
            "cudaLibraryGetKernel (full tiles)");
        !s)
        return s;
    if (Status s = cudaStatus(
            cudaLibraryGetKernel(&edge, library, std::string(kLessonTiledEdgeKernel).c_str()),
            "cudaLibraryGetKernel (edge tiles)");
        !s)
        return s;
    kernel->full = reinterpret_cast<void*>(full);
    kernel->edge = reinterpret_cast<void*>(edge);
    kernel->stages = stages;
    kernel->sharedBytes = lessonTiledSharedBytes(tiles, dtype, stages);
    kernel->origin = module->origin;
    kernel->compileMs = module->compileMs;
    kernel->log = module->log;
    for (void* entry : {kernel->full, kernel->edge}) {
        if (Status s =
                cudaStatus(cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(kernel->sharedBytes)),
                           "cudaFuncSetAttribute (tiled lesson kernel shared memory)");
            !s)
            return s;
        if (Status s = cudaStatus(
                cudaFuncSetAttribute(entry, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     cudaSharedmemCarveoutMaxShared),
                "cudaFuncSetAttribute (tiled lesson kernel carveout)");
            !s)
            return s;
    }
    const LessonTiledKernel* result = kernel.get();
    loaded().emplace(key, std::move(kernel));
    return result;
}

Status launchLessonTiled(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                         const MlpShape& shape, const void* x, const void* gate, const void* up,
                         const void* down, void* out, void* stream) {
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, tiles.blockM)),
                    static_cast<unsigned>(ceilDiv(shape.H, tiles.blockN)));
    int m = static_cast<int>(shape.M), h = static_cast<int>(shape.H), i = static_cast<int>(shape.I);
    void* args[] = {&x, &gate, &up, &down, &out, &m, &h, &i};
    const void* entry = lessonTiledFull(tiles, shape) ? kernel.full : kernel.edge;
    return cudaStatus(cudaLaunchKernel(entry, grid, dim3(kLessonTiledThreads), args,
                                       kernel.sharedBytes, static_cast<cudaStream_t>(stream)),
                      "swiglu_mlp_lesson_tiled launch");
}

KernelResources lessonTiledResources(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                                     const MlpShape& shape) {
    const void* entry = lessonTiledFull(tiles, shape) ? kernel.full : kernel.edge;
    cudaFuncAttributes attributes{};
    int blocks = 0;
    Result<DeviceFacts> device = currentDevice();
    if (!device || cudaFuncGetAttributes(&attributes, entry) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, entry, kLessonTiledThreads,
                                                      kernel.sharedBytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return {};
    }
    KernelResources r;
    r.known = true;
    r.registersPerThread = attributes.numRegs;
    r.localBytesPerThread = static_cast<int>(attributes.localSizeBytes);
    r.staticSharedBytes = static_cast<int>(attributes.sharedSizeBytes);
    r.dynamicSharedBytes = static_cast<int>(kernel.sharedBytes);
    r.sharedBytesPerBlock = r.staticSharedBytes + r.dynamicSharedBytes;
    r.blockSize = kLessonTiledThreads;
    r.gridSize = static_cast<int>(ceilDiv(shape.M, tiles.blockM) * ceilDiv(shape.H, tiles.blockN));
    r.blocksPerMultiprocessor = blocks;
    r.theoreticalOccupancy = static_cast<double>(blocks * kLessonTiledThreads) /
                             static_cast<double>(std::max(1, device->maxThreadsPerMultiprocessor));
    r.origin = kernel.origin;
    r.compileMs = kernel.compileMs;
    return r;
}

}  // namespace fusescope::mlp
