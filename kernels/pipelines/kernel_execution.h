#pragma once
// The one way every kernel runs: compiled kernels, library calls (cuBLAS) and kernels compiled at
// run time (NVRTC, mlp/mlp_lesson_tiled.h) all implement KernelExecution. A backend keeps a catalog
// of them by the key a KernelSpec names (KernelSpec::execution); each family adds its own entries
// (e.g. swiglu.cu, mlp/mlp_executions_cuda.cpp), so adding a family touches no table here.
#include <any>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/cancel_token.h"
#include "core/status.h"
#include "pipelines/backend_kind.h"
#include "pipelines/cpu_kernels.h"
#include "pipelines/problem.h"
#include "platform/runtime_compiler.h"

namespace fusescope {

// What the compiler gave a kernel (CUDA), or nothing (CPU, library calls).
struct KernelResources {
    bool known = false;
    int registersPerThread = 0;
    int sharedBytesPerBlock = 0;
    int localBytesPerThread = 0;  // spills
    int blockSize = 0;
    int gridSize = 0;
    double theoreticalOccupancy = 0.0;  // 0..1
    // Kernels compiled at run time and the tile explorer also report these.
    int staticSharedBytes = 0;
    int dynamicSharedBytes = 0;
    int blocksPerMultiprocessor = 0;
    std::string origin;  // "precompiled", "nvrtc", "memory cache", "disk cache"
    double compileMs = 0.0;
    // Where the code had builds to choose between by timing (KernelExecution::choose): which one
    // runs, and the times that chose it; empty elsewhere.
    std::string choice;
};

// State an execution keeps per backend (a cuBLAS handle bound to the backend's stream), created
// on first use and released with the backend.
class ExecutionState {
  public:
    // The object stored under `key`, made by `make` the first time (an error is returned and
    // nothing is stored when it fails).
    template <typename T>
    Result<T*> get(const std::string& key,
                   const std::function<Result<std::shared_ptr<T>>()>& make) {
        auto found = objects_.find(key);
        if (found == objects_.end()) {
            Result<std::shared_ptr<T>> made = make();
            if (!made) return made.status();
            found = objects_.emplace(key, std::shared_ptr<void>(*made)).first;
        }
        return static_cast<T*>(found->second.get());
    }

  private:
    std::map<std::string, std::shared_ptr<void>> objects_;
};

// Where an execution runs: what the backend hands it.
struct ExecutionTarget {
    BackendKind backend = BackendKind::Cpu;
    void* stream = nullptr;  // CUDA: the backend's cudaStream_t
    int hostThreads = 1;     // CPU: threads to split the work over
    CpuInstructionSet instructionSet = CpuInstructionSet::Baseline;
    int multiprocessors = 0;
    int maxThreadsPerMultiprocessor = 0;
    ExecutionState* state = nullptr;
    // CPU kernels ask it per block of work and return ErrorCode::Cancelled when it is set.
    CancelToken cancel;
};

// One launch: the problem, which kernel of which variant, and its buffers in KernelSpec::args
// order.
struct KernelCall {
    const Problem* problem = nullptr;
    std::string variant;
    std::size_t kernelIndex = 0;
    std::string kernelName;
    std::vector<void*> buffers;
};

class KernelExecution {
  public:
    virtual ~KernelExecution() = default;
    // Checks that the code exists for this device (a build without code for this GPU fails
    // here, with a message, instead of at the first launch).
    virtual Status load(const ExecutionTarget& target) {
        (void)target;
        return Status::ok();
    }
    // Why this call cannot run here (tiles this build has no code for, dimensions beyond a
    // library's limits), asked before anything is allocated; call.buffers is empty then.
    virtual Status supports(const ExecutionTarget& target, const KernelCall& call) {
        (void)target, (void)call;
        return Status::ok();
    }
    // Runs the kernel: on the CPU before returning; on a GPU, enqueued on target.stream.
    virtual Status enqueue(const ExecutionTarget& target, const KernelCall& call) = 0;
    virtual KernelResources resources(const ExecutionTarget& target, const KernelCall& call) {
        (void)target, (void)call;
        return {};
    }
    // For code compiled at run time: what must be compiled for this call (every build choose()
    // may pick), so that a caller can compile many calls at once (in parallel, through the module
    // cache) before supports() loads each. Nothing for precompiled code and library calls.
    virtual std::vector<CompileRequest> compileRequests(const ExecutionTarget& target,
                                                        const KernelCall& call) {
        (void)target, (void)call;
        return {};
    }
    // For code with several builds whose speed no rule predicts: times each on the call's buffers
    // and keeps the fastest for every later launch of the same build key in this process. Called
    // once the inputs are on the device and before the checked run; it may write only the call's
    // outputs. Whether it launched anything (false where the choice was made before, and for
    // code with one build).
    virtual Result<bool> choose(const ExecutionTarget& target, const KernelCall& call) {
        (void)target, (void)call;
        return false;
    }
};

using ExecutionCatalog = std::map<std::string, std::unique_ptr<KernelExecution>, std::less<>>;

// A run-time family's execution for this backend (runtime_registry.h), made on each call; null
// when no family registered at run time has one under `key`.
std::unique_ptr<KernelExecution> makeRuntimeExecution(BackendKind backend, std::string_view key);

// The code under `key` (a built-in family's, or a run-time family's, kept in the catalog once
// made), or the reason `backend` has none.
inline Result<KernelExecution*> findExecutionIn(ExecutionCatalog& catalog, std::string_view key,
                                                BackendKind backend) {
    auto found = catalog.find(key);
    if (found == catalog.end()) {
        std::unique_ptr<KernelExecution> made = makeRuntimeExecution(backend, key);
        if (!made)
            return Status(ErrorCode::InvalidArgument,
                          std::string("the ") + (backend == BackendKind::Cpu ? "CPU" : "CUDA") +
                              " backend has no code for " + std::string(key));
        found = catalog.emplace(std::string(key), std::move(made)).first;
    }
    return found->second.get();
}

// Every family's executions for one backend (the family lists are in cpu_executions.cpp and
// cuda_executions.cpp).
ExecutionCatalog makeCpuExecutions();
ExecutionCatalog makeCudaExecutions();

}  // namespace fusescope
