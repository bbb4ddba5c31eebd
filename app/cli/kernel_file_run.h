#pragma once
// `fusescope-cli run --kernel-file F.cu`: a learner's kernel (the Lab view's file) compiled by
// NVRTC, run beside the shipped variants of the pipeline it names as its reference, checked
// against that reference and put into the same recording as "your kernel". The Lab view starts
// this in a process of its own, so that a crash or a hang costs the window nothing.
#include <QString>

#include "core/status.h"
#include "model/lab/learner_kernel.h"
#include "model/recording.h"
#include "pipelines/registry.h"
#include "platform/runtime_compiler.h"

namespace fusescope::cli {

// The variant name of the learner's run in recordings.
QString learnerVariantName();

struct KernelFile {
    model::LearnerKernel kernel;
    const PipelineSpec* reference = nullptr;
    CompiledModule module;
};

// Loads the file, checks its buffers against the reference pipeline (inputs it has, one output)
// and compiles it; the compiler's messages go to stdout either way ("F.cu(12): error: ...", the
// file's own line numbers). A compile error is an InvalidArgument.
Result<KernelFile> compileKernelFile(const QString& path);

struct LearnerRunSettings {
    Problem problem;
    int warmup = 1;
    int repeats = 5;
    double timeLimitSeconds = 10.0;
};

// Runs the kernel on the settings' problem (the reference's inputs, outputs poisoned), checks
// the output (the first wrong element printed with expected and got) and appends its run to
// `recording`. The pass count is the declared pass list's.
// `kernelLeftRunning` is set where the learner's kernel was given up while the GPU still runs it
// (past the time limit, or Ctrl-C): the caller must then end the process without freeing.
Status appendLearnerRun(const KernelFile& file, const LearnerRunSettings& settings,
                        model::Recording& recording, bool& kernelLeftRunning);

}  // namespace fusescope::cli
