#include "pipelines/mlp/mlp_tiled_module_cuda.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <memory>

#include "pipelines/cuda_kernel_resources.h"
#include "platform/cuda_error.h"
#include "platform/kernel_shared_memory.h"
#include "platform/shared_memory_limit.h"

namespace fusescope::mlp {
namespace {

Status attribute(int& value, cudaDeviceAttr attribute, int device, const char* what) {
    return cudaStatus(cudaDeviceGetAttribute(&value, attribute, device),
                      std::string("cudaDeviceGetAttribute (") + what + ")");
}

// Loaded modules by cache key; never unloaded (kernels may be queued on a stream).
std::map<std::string, std::unique_ptr<TiledKernel>>& loaded() {
    static std::map<std::string, std::unique_ptr<TiledKernel>> kernels;
    return kernels;
}

// The device's name for a refusal ("NVIDIA H200"); empty where the runtime cannot say.
std::string currentDeviceName() {
    int device = 0;
    cudaDeviceProp properties{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&properties, device) != cudaSuccess)
        return {};
    return properties.name;
}

// A kernel that asks for more shared memory than a block may opt in to is refused in words
// before it is compiled, instead of failing in cudaFuncSetAttribute with a bare CUDA error.
Status sharedMemoryFits(std::uint64_t sharedBytes, std::string_view what) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const auto allowed = static_cast<std::uint64_t>(device->sharedOptIn);
    if (sharedBytes <= allowed) return Status::ok();
    return Status(ErrorCode::InvalidArgument,
                  "the " + std::string(what) + " " +
                      sharedMemoryRefusal(sharedBytes, allowed, currentDeviceName()));
}

}  // namespace

namespace {

Result<TiledDeviceFacts> readDeviceFacts(int device) {
    TiledDeviceFacts facts;
    int driver = 0;
    if (Status s =
            attribute(facts.major, cudaDevAttrComputeCapabilityMajor, device, "compute capability");
        !s)
        return s;
    if (Status s =
            attribute(facts.minor, cudaDevAttrComputeCapabilityMinor, device, "compute capability");
        !s)
        return s;
    if (Status s = attribute(facts.sharedOptIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device,
                             "shared memory per block");
        !s)
        return s;
    if (Status s =
            attribute(facts.sharedPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                      device, "shared memory per SM");
        !s)
        return s;
    if (Status s = attribute(facts.maxThreadsPerMultiprocessor,
                             cudaDevAttrMaxThreadsPerMultiProcessor, device, "threads per SM");
        !s)
        return s;
    if (Status s = attribute(facts.multiprocessors, cudaDevAttrMultiProcessorCount, device,
                             "multiprocessors");
        !s)
        return s;
    if (Status s = attribute(facts.l2Bytes, cudaDevAttrL2CacheSize, device, "L2 size"); !s)
        return s;
    if (Status s = cudaStatus(cudaDriverGetVersion(&driver), "cudaDriverGetVersion"); !s) return s;
    facts.driver = std::to_string(driver);
    return facts;
}

}  // namespace

// Read once a device: every launch of a run-time compiled kernel asks (its stages follow the
// shape), and the attributes never change.
Result<TiledDeviceFacts> tiledDeviceFacts() {
    int device = 0;
    if (Status s = cudaStatus(cudaGetDevice(&device), "cudaGetDevice"); !s) return s;
    static std::map<int, TiledDeviceFacts> known;
    auto found = known.find(device);
    if (found == known.end()) {
        Result<TiledDeviceFacts> facts = readDeviceFacts(device);
        if (!facts) return facts.status();
        found = known.emplace(device, *facts).first;
    }
    setModuleCacheDriverVersion(found->second.driver);
    return found->second;
}

Result<const TiledKernel*> loadTiledKernel(const CompileRequest& request,
                                           const TiledEntryNames& names, std::uint64_t sharedBytes,
                                           int stages, int threads, std::string_view what,
                                           const CancelToken& cancel) {
    if (Status fits = sharedMemoryFits(sharedBytes, what); !fits) return fits;
    Result<ModuleCompiler*> compiler = runtimeCompiler();
    if (!compiler) return compiler.status();
    const std::string key = moduleCache().keyOf(**compiler, request);
    if (auto found = loaded().find(key); found != loaded().end()) return found->second.get();
    Result<CompiledModule> module = moduleCache().get(**compiler, request, cancel);
    if (!module) return module.status();
    const std::string name(what);
    cudaLibrary_t library = nullptr;
    if (Status s = cudaStatus(cudaLibraryLoadData(&library, module->image.data(), nullptr, nullptr,
                                                  0, nullptr, nullptr, 0),
                              "cudaLibraryLoadData (run-time compiled " + name + ")");
        !s)
        return s;
    auto kernel = std::make_unique<TiledKernel>();
    const auto entryOf = [&](std::string_view entryName, void** entry) -> Status {
        cudaKernel_t found = nullptr;
        const std::string symbol(entryName);
        if (Status s = cudaStatus(cudaLibraryGetKernel(&found, library, symbol.c_str()),
                                  "cudaLibraryGetKernel (" + symbol + ")");
            !s)
            return s;
        *entry = reinterpret_cast<void*>(found);
        return Status::ok();
    };
    if (Status s = entryOf(names.full, &kernel->full); !s) return s;
    if (Status s = entryOf(names.edge, &kernel->edge); !s) return s;
    if (!names.rows.empty())
        if (Status s = entryOf(names.rows, &kernel->rows); !s) return s;
    kernel->stages = stages;
    kernel->threads = threads;
    kernel->sharedBytes = sharedBytes;
    kernel->origin = module->origin;
    kernel->compileMs = module->compileMs;
    kernel->log = module->log;
    for (void* entry : {kernel->full, kernel->rows, kernel->edge}) {
        if (entry == nullptr) continue;
        if (Status s = allowDynamicSharedMemory(entry, static_cast<int>(kernel->sharedBytes), name);
            !s)
            return s;
        if (Status s = preferSharedMemoryCarveout(entry, name); !s) return s;
    }
    const TiledKernel* result = kernel.get();
    loaded().emplace(key, std::move(kernel));
    return result;
}

Result<const TiledKernel*> tiledKernelFor(const std::string& key,
                                          const std::function<Result<const TiledKernel*>()>& load) {
    int device = 0;
    if (Status s = cudaStatus(cudaGetDevice(&device), "cudaGetDevice"); !s) return s;
    static std::map<std::pair<int, std::string>, const TiledKernel*> found;
    const std::pair<int, std::string> where(device, key);
    if (auto known = found.find(where); known != found.end()) return known->second;
    Result<const TiledKernel*> kernel = load();
    if (kernel) found.emplace(where, *kernel);
    return kernel;
}

KernelResources tiledKernelResources(const TiledKernel& kernel, const void* entry, int threads,
                                     std::uint64_t gridSize) {
    KernelResources r = kernelResourcesOf(entry, threads, static_cast<int>(kernel.sharedBytes),
                                          static_cast<std::int64_t>(gridSize));
    if (!r.known) return r;
    r.origin = kernel.origin;
    r.compileMs = kernel.compileMs;
    return r;
}

}  // namespace fusescope::mlp
