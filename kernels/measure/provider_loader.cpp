// createCounterProvider: loads the CUPTI module (libfusescope_cupti.so) at run time. The module
// links libcupti.so.13 and libcuda.so.1; loading it where they are missing fails here, with the
// loader's words, instead of stopping the program at start.
#include <dlfcn.h>

#include <filesystem>

#include "measure/counter_provider.h"

namespace fusescope {
namespace {

class RefusingCounterProvider : public CounterProvider {
  public:
    RefusingCounterProvider(CounterRefusal refusal, std::string detail) {
        capability_.refusal = refusal;
        capability_.reason = refusalReason(refusal, detail);
        capability_.adminAdvice = refusalAdvice(refusal);
        capability_.provider = "none";
    }
    CounterCapability capability() override { return capability_; }
    Result<std::vector<KernelCounters>> measureLaunches(std::size_t,
                                                        const std::function<Status(std::size_t)>&,
                                                        const std::function<Status()>&) override {
        return refused();
    }
    Status startSampling(std::int64_t, SamplingCallback) override { return refused(); }
    Result<SamplingStats> stopSampling() override { return refused(); }
    std::int64_t nowNs() override { return 0; }

  private:
    Status refused() const { return Status(ErrorCode::DeviceUnavailable, capability_.reason); }
    CounterCapability capability_;
};

#ifdef FUSESCOPE_CUPTI_MODULE_NAME
// Where the module may be: beside the program, in ../lib/fusescope, or in the build tree.
std::vector<std::string> moduleCandidates() {
    std::vector<std::string> candidates;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&createCounterProvider), &info) && info.dli_fname) {
        const std::filesystem::path here = std::filesystem::path(info.dli_fname).parent_path();
        candidates.push_back((here / FUSESCOPE_CUPTI_MODULE_NAME).string());
        candidates.push_back((here / "../lib/fusescope" / FUSESCOPE_CUPTI_MODULE_NAME).string());
    }
    candidates.push_back(FUSESCOPE_CUPTI_MODULE_BUILD_PATH);
    return candidates;
}
#endif

}  // namespace

std::unique_ptr<CounterProvider> createCounterProvider() {
#ifndef FUSESCOPE_CUPTI_MODULE_NAME
    return std::make_unique<RefusingCounterProvider>(CounterRefusal::NotBuilt, "");
#else
    std::string firstError;
    for (const std::string& path : moduleCandidates()) {
        if (!std::filesystem::exists(path)) continue;
        // Kept loaded for the life of the process: CUPTI callbacks may still point into it.
        void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!module) {
            const char* error = dlerror();
            firstError = error ? error : ("could not load " + path);
            break;  // the module is there but its libraries (libcupti.so.13) are not
        }
        using Factory = CounterProvider* (*)();
        auto factory = reinterpret_cast<Factory>(dlsym(module, "fusescopeCreateCuptiProvider"));
        if (!factory)
            return std::make_unique<RefusingCounterProvider>(CounterRefusal::LibraryMissing,
                                                             path + " has no provider entry point");
        return std::unique_ptr<CounterProvider>(factory());
    }
    if (firstError.empty())
        firstError = std::string(FUSESCOPE_CUPTI_MODULE_NAME) + " was not found beside the program";
    // The module links libcuda.so.1 too: without it the GPU driver is what is missing.
    const CounterRefusal refusal = firstError.find("libcuda.so") != std::string::npos
                                       ? CounterRefusal::NoDevice
                                       : CounterRefusal::LibraryMissing;
    return std::make_unique<RefusingCounterProvider>(refusal, firstError);
#endif
}

}  // namespace fusescope
