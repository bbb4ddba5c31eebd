#pragma once
// `fusescope-cli run --kernel-file F.cu`: a learner's kernel (the Lab view's file) compiled by
// NVRTC, run beside the shipped variants of the pipeline it names as its reference (or of its
// expression, registered for the run), checked against that reference and put into the same
// recording as the variant "your kernel" (model/lab/learner_run.h). The Lab view starts this in a
// process of its own, so that a crash or a hang costs the window nothing.
#include <QString>

#include "core/status.h"
#include "measure/counter_provider.h"
#include "model/lab/learner_kernel.h"
#include "model/recording.h"
#include "pipelines/registry.h"
#include "platform/runtime_compiler.h"
#include "runtime/backend.h"
#include "runtime/run_settings.h"

namespace fusescope::cli {

struct KernelFile {
    model::LearnerKernel kernel;
    const PipelineSpec* reference = nullptr;
    // What the recording carries so that "your kernel" is a variant of the reference's family.
    PipelineDescription family;
    CompiledModule module;
};

// Loads the file, registers its expression (a blank kernel's reference), checks its buffers
// against the reference pipeline (inputs it has, one output) and compiles it; the compiler's
// messages go to stdout either way ("F.cu(12): error: ...", the file's own line numbers). A
// compile error is an InvalidArgument.
Result<KernelFile> compileKernelFile(const QString& path);

struct LearnerRunSettings {
    Problem problem;
    RunSettings settings;  // the request's: warm-up, repeats and the inputs' seed
    double timeLimitSeconds = 10.0;
    // Set with --measure counters: the kernel's DRAM bytes are counted by the Range Profiler
    // (each pass from a clean L2, as for the shipped variants) on this backend's GPU.
    CounterProvider* counters = nullptr;
    Backend* backend = nullptr;
};

// Runs the kernel on the settings' problem (the reference's inputs, outputs poisoned), checks
// the output (the first wrong element printed with expected and got), appends its run to
// `recording` and the description of its family to the recording's descriptions. The pass
// count is the counters' where measured, else the declared pass list's.
// `kernelLeftRunning` is set where the learner's kernel was given up while the GPU still runs it
// (past the time limit, or Ctrl-C): the caller must then end the process without freeing.
Status appendLearnerRun(const KernelFile& file, const LearnerRunSettings& settings,
                        model::Recording& recording, bool& kernelLeftRunning);

}  // namespace fusescope::cli
