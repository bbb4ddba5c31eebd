#pragma once
// Pipelines registered while the program runs (an expression, a learner's kernel, a recording's
// description), beside the built-in families. pipelines() and findPipeline() list both.
//
// A registered PipelineSpec never moves and is never freed: one that is replaced or unregistered
// drops out of pipelines() and findPipeline(), but a `const PipelineSpec*` a view still holds stays
// valid. Safe to call from the UI thread and the worker thread at once.
//
// The backends find a run-time family's code through makeRuntimeExecution
// (kernel_execution.h): each KernelSpec's execution key is made unique to the registration, so a
// backend's cached execution of a replaced family is never found again.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/pipeline_description.h"
#include "pipelines/registry.h"

namespace fusescope {

// Makes one backend's execution of a kernel; called once per backend that runs the kernel.
using ExecutionMaker = std::function<std::unique_ptr<KernelExecution>()>;

struct RuntimePipeline {
    PipelineSpec spec;
    // By the execution key the variants' plans give (KernelSpec::execution). A backend without
    // an entry says it has no code for that kernel.
    std::map<std::string, ExecutionMaker, std::less<>> cpuExecutions;
    std::map<std::string, ExecutionMaker, std::less<>> cudaExecutions;
    // What recordings keep, so that they reopen where the family was never registered.
    std::optional<PipelineDescription> description;
};

// Refuses an empty name, a family without variants, and a name already registered (built-in
// or at run time), with the reason.
Result<const PipelineSpec*> registerPipeline(RuntimePipeline pipeline);
// Registers, or replaces the run-time family of the same name (a learner edits and runs again);
// refuses a built-in family's name.
Result<const PipelineSpec*> replacePipeline(RuntimePipeline pipeline);
// A built-in family with variants added while the program runs (a learner's kernel beside the
// shipped variants): `pipeline.spec` is the built-in's spec with the variants appended. Until
// unregistered or replaced, findPipeline and pipelines() give it in the built-in's place, under
// the built-in's name, so that runs of every variant stay runs of one family. The built-in's own
// variants keep their execution keys; the added ones get keys of this registration.
Result<const PipelineSpec*> extendBuiltInPipeline(RuntimePipeline pipeline);
// Refuses a name not registered, and a built-in family that no extension replaces.
Status unregisterPipeline(std::string_view name);

// Calls `listener` after every registration, replacement and unregistering, on the thread that
// made it, until the number returned is given to unwatchPipelines (which waits for a call under
// way). A listener returns quickly and registers nothing.
std::uint64_t watchPipelines(std::function<void()> listener);
void unwatchPipelines(std::uint64_t watch);

bool isBuiltInPipeline(std::string_view name);
// The built-in family of that name as declared, an extension of it left out; null for others.
const PipelineSpec* findBuiltInPipeline(std::string_view name);
// True for a family registered at run time, and for a built-in one while it is extended.
bool isRuntimePipeline(std::string_view name);
// A variant with no code here on any backend: one a recording registered (a learner's kernel,
// which only `fusescope-cli run --kernel-file` runs). Every view of a recording shows it; nothing
// offers it to a run.
bool isRecordedOnly(const PipelineSpec& pipeline, const VariantSpec& variant);
// The family's variants in order, those recorded only left out: what "all variants" runs.
std::vector<const VariantSpec*> runnableVariants(const PipelineSpec& pipeline);
// The description the run-time family was registered with; nullopt for a built-in family, a
// name not registered, and a family registered without one.
std::optional<PipelineDescription> runtimePipelineDescription(std::string_view name);

}  // namespace fusescope
