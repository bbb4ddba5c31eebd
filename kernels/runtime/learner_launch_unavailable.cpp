// Linked when FuseScope is built without the CUDA toolkit: a learner's kernel still compiles
// (NVRTC is loaded at run time) but cannot run.
#include "runtime/learner_launch.h"

namespace fusescope {

std::string learnerArchitecture() {
    return "sm_90";
}

Result<LearnerTiming> runLearnerKernel(LearnerLaunch&, const CancelToken&) {
    return Status(
        ErrorCode::DeviceUnavailable,
        "running a kernel needs a GPU: this FuseScope was built without the CUDA toolkit");
}

}  // namespace fusescope
