#pragma once
// The learner's run as a recording keeps it: a variant of its reference's family beside the
// shipped ones. learnerFamilyDescription is the one place that makes "your kernel" a variant: the
// recording carries the description, opening it registers the variant (recorded_pipelines.h),
// and from then on the memory stage, compare, charts and exports find it in the registry like
// any other. learnerRunResult is the run itself, with counters where they were measured.
#include <optional>

#include "model/lab/learner_kernel.h"
#include "model/recording.h"
#include "pipelines/pipeline_description.h"
#include "runtime/learner_launch.h"
#include "runtime/runner.h"

namespace fusescope::model {

// The variant name of the learner's run in recordings.
QString learnerVariantName();

// The reference family with the kernel added as the variant learnerVariantName(): its buffers
// and one kernel whose sweeps are the declared passes. For a built-in family an extension of it
// (PipelineDescription::extendsBuiltIn); for one registered at run time (a blank kernel's
// expression) its own description with the variant added. The kernel carries no code: it runs
// only through `fusescope-cli run --kernel-file`, in a process of its own.
Result<PipelineDescription> learnerFamilyDescription(const LearnerKernel& kernel,
                                                     const PipelineSpec& reference);

// Passes counted from measured DRAM bytes: whole N-element float32 sweeps, rounded.
int passesFromCounters(const KernelCounters& counters, std::uint64_t n);

// The learner's run: its time, check, allocations, the declared passes' bytes and the
// reference's FLOPs for the problem (0 where the registry declares none); with `counters`, the
// kernel's measured DRAM bytes and the passes counted from them.
VariantResult learnerRunResult(const LearnerKernel& kernel, const PipelineSpec& reference,
                               const Problem& problem, const LearnerTiming& timing,
                               const CheckResult& check,
                               const std::optional<KernelCounters>& counters = std::nullopt);

}  // namespace fusescope::model
