#include "pipelines/runtime_cuda_execution.h"

#include <cuda_runtime_api.h>

#include <array>
#include <string>
#include <vector>

#include "pipelines/cuda_executions.h"
#include "pipelines/cuda_kernels.h"
#include "pipelines/described_pipeline.h"
#include "platform/cuda_error.h"
#include "platform/runtime_compiler.h"

namespace fusescope {
namespace {

Result<std::string> currentArchitecture() {
    int device = 0, major = 0, minor = 0, driver = 0;
    if (Status s = cudaStatus(cudaGetDevice(&device), "cudaGetDevice"); !s) return s;
    if (Status s =
            cudaStatus(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
                       "cudaDeviceGetAttribute (compute capability)");
        !s)
        return s;
    if (Status s =
            cudaStatus(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
                       "cudaDeviceGetAttribute (compute capability)");
        !s)
        return s;
    if (Status s = cudaStatus(cudaDriverGetVersion(&driver), "cudaDriverGetVersion"); !s) return s;
    setModuleCacheDriverVersion(std::to_string(driver));
    return "sm_" + std::to_string(major) + std::to_string(minor);
}

class RuntimeElementwiseCudaExecution final : public KernelExecution {
  public:
    explicit RuntimeElementwiseCudaExecution(DescribedKernel kernel) : kernel_(std::move(kernel)) {
        for (std::size_t w = 0; w < kSupportedVectorWidths.size(); ++w)
            names_[w] = kernel_.name + "<" + std::to_string(kSupportedVectorWidths[w]) + ">";
    }

    Status load(const ExecutionTarget& target) override {
        if (inner_) return Status::ok();
        Result<std::string> architecture = currentArchitecture();
        if (!architecture) return architecture.status();
        Result<ModuleCompiler*> compiler = runtimeCompiler();
        if (!compiler) return compiler.status();
        // Both widths at once; a cancel returns at once.
        std::vector<CompileRequest> requests;
        for (int width : kSupportedVectorWidths)
            requests.push_back(requestFor(width, *architecture));
        Result<std::vector<CompiledModule>> modules =
            compileAll(**compiler, requests, target.cancel);
        if (!modules) return modules.status();
        std::array<CudaKernel, kSupportedVectorWidths.size()> kernels{};
        for (std::size_t w = 0; w < kSupportedVectorWidths.size(); ++w) {
            const CompiledModule& module = (*modules)[w];
            origin_ = module.origin;
            compileMs_ += module.compileMs;
            cudaLibrary_t library = nullptr;
            // Never unloaded: kernels of it may still be queued on the stream.
            if (Status s = cudaStatus(cudaLibraryLoadData(&library, module.image.data(), nullptr,
                                                          nullptr, 0, nullptr, nullptr, 0),
                                      "cudaLibraryLoadData (" + names_[w] + ")");
                !s)
                return s;
            cudaKernel_t entry = nullptr;
            if (Status s =
                    cudaStatus(cudaLibraryGetKernel(&entry, library, kernel_.cudaEntry.c_str()),
                               "finding the entry " + kernel_.cudaEntry + " of " + names_[w]);
                !s)
                return s;
            kernels[w] = CudaKernel{reinterpret_cast<const void*>(entry),
                                    static_cast<int>(kernel_.args.size()), names_[w].c_str()};
        }
        const CudaElementwiseEntry entry{kernel_.name.c_str(), kernels[0], kernels[1]};
        std::unique_ptr<KernelExecution> inner = makeElementwiseCudaExecution(entry);
        if (Status s = inner->load(target); !s) return s;
        inner_ = std::move(inner);
        return Status::ok();
    }

    // Compiled and loaded on first use: run-time executions are made after the backend loaded
    // its catalog.
    Status supports(const ExecutionTarget& target, const KernelCall& call) override {
        if (Status s = load(target); !s) return s;
        return inner_->supports(target, call);
    }

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        if (!inner_)
            return Status(ErrorCode::DeviceError, "the kernel " + kernel_.name + " is not loaded");
        return inner_->enqueue(target, call);
    }

    KernelResources resources(const ExecutionTarget& target, const KernelCall& call) override {
        if (!inner_) return {};
        KernelResources resources = inner_->resources(target, call);
        resources.origin = origin_;
        resources.compileMs = compileMs_;
        return resources;
    }

    std::vector<CompileRequest> compileRequests(const ExecutionTarget& target,
                                                const KernelCall& call) override {
        (void)target;
        Result<std::string> architecture = currentArchitecture();
        if (!architecture) return {};
        return {requestFor(call.problem->tuningValue(kVectorWidthTuning), *architecture)};
    }

  private:
    CompileRequest requestFor(int width, const std::string& architecture) const {
        return describedKernelCompileRequest(kernel_, width, architecture);
    }

    DescribedKernel kernel_;
    std::array<std::string, kSupportedVectorWidths.size()> names_;
    std::unique_ptr<KernelExecution> inner_;
    std::string origin_;
    double compileMs_ = 0.0;
};

}  // namespace

std::unique_ptr<KernelExecution> makeRuntimeElementwiseCudaExecution(
    const DescribedKernel& kernel) {
    return std::make_unique<RuntimeElementwiseCudaExecution>(kernel);
}

}  // namespace fusescope
