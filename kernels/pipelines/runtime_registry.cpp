// The registry's storage: the built-in families (families.h), made once, and the families
// registered while the program runs, behind one lock.
#include "pipelines/runtime_registry.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "pipelines/families.h"

namespace fusescope {
namespace {

struct RuntimeEntry {
    PipelineSpec spec;
    std::map<std::string, ExecutionMaker, std::less<>> cpuExecutions;
    std::map<std::string, ExecutionMaker, std::less<>> cudaExecutions;
    std::optional<PipelineDescription> description;
};

const std::vector<PipelineSpec>& builtInPipelines() {
    static const std::vector<PipelineSpec> all = {makeAffinePipeline(), makeSwigluPipeline(),
                                                  makeMlpPipeline()};
    return all;
}

struct RuntimeStore {
    std::mutex mutex;
    std::vector<std::unique_ptr<RuntimeEntry>> registered;  // in registration order
    // Replaced and unregistered entries: kept, so that addresses handed out stay valid.
    std::vector<std::unique_ptr<RuntimeEntry>> retired;
    // The execution keys of every registration's kernels start with their registration's number.
    std::uint64_t registrations = 0;
    std::map<std::string, const RuntimeEntry*, std::less<>> byExecutionKey;
};

RuntimeStore& store() {
    static RuntimeStore instance;
    return instance;
}

// Behind a lock of their own: listeners are called after the store's lock is released, so that
// they may read the registry.
struct Watchers {
    std::mutex mutex;
    std::uint64_t next = 0;
    std::map<std::uint64_t, std::function<void()>> listeners;
};

Watchers& watchers() {
    static Watchers instance;
    return instance;
}

void notifyWatchers() {
    Watchers& all = watchers();
    std::lock_guard lock(all.mutex);
    for (const auto& entry : all.listeners) entry.second();
}

Status invalid(std::string message) {
    return Status(ErrorCode::InvalidArgument, std::move(message));
}

// Called with the lock held.
std::vector<std::unique_ptr<RuntimeEntry>>::iterator findRegistered(RuntimeStore& runtime,
                                                                    std::string_view name) {
    return std::find_if(runtime.registered.begin(), runtime.registered.end(),
                        [&](const auto& entry) { return entry->spec.name == name; });
}

Status checkRegistrable(const PipelineSpec& spec) {
    if (spec.name.empty()) return invalid("a pipeline registered at run time needs a name");
    if (isBuiltInPipeline(spec.name))
        return invalid("pipeline '" + spec.name + "' is built in; choose another name");
    if (spec.variants.empty()) return invalid("pipeline '" + spec.name + "' has no variants");
    if (!spec.makeInputs || !spec.check)
        return invalid("pipeline '" + spec.name + "' has no input maker or no check");
    return Status::ok();
}

// Each variant's kernels get execution keys of this registration alone, and the makers move
// under those keys; a built-in's own variants (an extension's first ones) keep theirs.
std::unique_ptr<RuntimeEntry> entryFor(RuntimePipeline pipeline, std::uint64_t registration) {
    auto entry = std::make_unique<RuntimeEntry>();
    const std::string prefix = "runtime:" + std::to_string(registration) + ":";
    const PipelineSpec* builtIn = findBuiltInPipeline(pipeline.spec.name);
    const std::size_t kept = builtIn ? builtIn->variants.size() : 0;
    for (std::size_t v = kept; v < pipeline.spec.variants.size(); ++v) {
        VariantSpec& variant = pipeline.spec.variants[v];
        variant.plan = [plan = std::move(variant.plan), prefix](const Problem& problem) {
            std::vector<KernelSpec> kernels = plan ? plan(problem) : std::vector<KernelSpec>{};
            for (KernelSpec& kernel : kernels) kernel.execution = prefix + kernel.execution;
            return kernels;
        };
    }
    for (auto& [key, maker] : pipeline.cpuExecutions)
        entry->cpuExecutions.emplace(prefix + key, std::move(maker));
    for (auto& [key, maker] : pipeline.cudaExecutions)
        entry->cudaExecutions.emplace(prefix + key, std::move(maker));
    entry->spec = std::move(pipeline.spec);
    entry->description = std::move(pipeline.description);
    return entry;
}

// Called with the lock held. Its executions stay findable: a run of the retired spec may be under
// way on the worker.
void retire(RuntimeStore& runtime, std::vector<std::unique_ptr<RuntimeEntry>>::iterator entry) {
    runtime.retired.push_back(std::move(*entry));
    runtime.registered.erase(entry);
}

// Called with the lock held.
const PipelineSpec* add(RuntimeStore& runtime, RuntimePipeline pipeline) {
    std::unique_ptr<RuntimeEntry> entry = entryFor(std::move(pipeline), ++runtime.registrations);
    for (const auto* executions : {&entry->cpuExecutions, &entry->cudaExecutions})
        for (const auto& item : *executions) runtime.byExecutionKey[item.first] = entry.get();
    runtime.registered.push_back(std::move(entry));
    return &runtime.registered.back()->spec;
}

Result<const PipelineSpec*> replaceChecked(RuntimePipeline pipeline, bool replace) {
    const PipelineSpec* added = nullptr;
    {
        RuntimeStore& runtime = store();
        std::lock_guard lock(runtime.mutex);
        const auto existing = findRegistered(runtime, pipeline.spec.name);
        if (existing != runtime.registered.end()) {
            if (!replace)
                return invalid("a pipeline named '" + pipeline.spec.name +
                               "' is already registered");
            retire(runtime, existing);
        }
        added = add(runtime, std::move(pipeline));
    }
    notifyWatchers();
    return added;
}

Result<const PipelineSpec*> registerOrReplace(RuntimePipeline pipeline, bool replace) {
    if (Status s = checkRegistrable(pipeline.spec); !s) return s;
    return replaceChecked(std::move(pipeline), replace);
}

// An extension keeps the built-in's variants, by name and in order, before the added ones.
Status checkExtension(const PipelineSpec& spec) {
    const PipelineSpec* builtIn = findBuiltInPipeline(spec.name);
    if (!builtIn) return invalid("no built-in pipeline is named '" + spec.name + "'");
    if (spec.variants.size() <= builtIn->variants.size())
        return invalid("the extension of pipeline '" + spec.name + "' adds no variant");
    for (std::size_t v = 0; v < builtIn->variants.size(); ++v)
        if (spec.variants[v].name != builtIn->variants[v].name)
            return invalid("the extension of pipeline '" + spec.name + "' does not keep variant '" +
                           builtIn->variants[v].name + "' in its place");
    if (!spec.makeInputs || !spec.check)
        return invalid("pipeline '" + spec.name + "' has no input maker or no check");
    return Status::ok();
}

}  // namespace

PipelineList pipelines() {
    std::vector<const PipelineSpec*> all;
    RuntimeStore& runtime = store();
    std::lock_guard lock(runtime.mutex);
    for (const PipelineSpec& spec : builtInPipelines()) {
        const auto extended = findRegistered(runtime, spec.name);
        all.push_back(extended == runtime.registered.end() ? &spec : &(*extended)->spec);
    }
    for (const auto& entry : runtime.registered)
        if (!isBuiltInPipeline(entry->spec.name)) all.push_back(&entry->spec);
    return PipelineList(std::move(all));
}

const PipelineSpec* findPipeline(std::string_view name) {
    {
        RuntimeStore& runtime = store();
        std::lock_guard lock(runtime.mutex);
        const auto found = findRegistered(runtime, name);
        if (found != runtime.registered.end()) return &(*found)->spec;
    }
    return findBuiltInPipeline(name);
}

Result<const PipelineSpec*> registerPipeline(RuntimePipeline pipeline) {
    return registerOrReplace(std::move(pipeline), false);
}

Result<const PipelineSpec*> replacePipeline(RuntimePipeline pipeline) {
    return registerOrReplace(std::move(pipeline), true);
}

Result<const PipelineSpec*> extendBuiltInPipeline(RuntimePipeline pipeline) {
    if (Status s = checkExtension(pipeline.spec); !s) return s;
    return replaceChecked(std::move(pipeline), true);
}

Status unregisterPipeline(std::string_view name) {
    {
        RuntimeStore& runtime = store();
        std::lock_guard lock(runtime.mutex);
        const auto found = findRegistered(runtime, name);
        if (found == runtime.registered.end())
            return invalid(isBuiltInPipeline(name)
                               ? "pipeline '" + std::string(name) +
                                     "' is built in and cannot be unregistered"
                               : "no pipeline named '" + std::string(name) + "' is registered");
        retire(runtime, found);
    }
    notifyWatchers();
    return Status::ok();
}

std::uint64_t watchPipelines(std::function<void()> listener) {
    Watchers& all = watchers();
    std::lock_guard lock(all.mutex);
    all.listeners.emplace(++all.next, std::move(listener));
    return all.next;
}

void unwatchPipelines(std::uint64_t watch) {
    Watchers& all = watchers();
    std::lock_guard lock(all.mutex);
    all.listeners.erase(watch);
}

const PipelineSpec* findBuiltInPipeline(std::string_view name) {
    for (const PipelineSpec& spec : builtInPipelines())
        if (spec.name == name) return &spec;
    return nullptr;
}

bool isBuiltInPipeline(std::string_view name) {
    const auto& builtIn = builtInPipelines();
    return std::any_of(builtIn.begin(), builtIn.end(),
                       [&](const PipelineSpec& spec) { return spec.name == name; });
}

bool isRuntimePipeline(std::string_view name) {
    RuntimeStore& runtime = store();
    std::lock_guard lock(runtime.mutex);
    return findRegistered(runtime, name) != runtime.registered.end();
}

std::optional<PipelineDescription> runtimePipelineDescription(std::string_view name) {
    RuntimeStore& runtime = store();
    std::lock_guard lock(runtime.mutex);
    const auto found = findRegistered(runtime, name);
    if (found == runtime.registered.end()) return std::nullopt;
    return (*found)->description;
}

bool isRecordedOnly(const PipelineSpec& pipeline, const VariantSpec& variant) {
    if (const PipelineSpec* builtIn = findBuiltInPipeline(pipeline.name);
        builtIn && findVariant(*builtIn, variant.name))
        return false;  // the built-in's own code
    const std::vector<KernelSpec> kernels = variant.kernelsFor(pipeline.defaultProblem());
    RuntimeStore& runtime = store();
    std::lock_guard lock(runtime.mutex);
    const auto hasCode = [](const std::map<std::string, ExecutionMaker, std::less<>>& makers,
                            const std::string& key) {
        const auto made = makers.find(key);
        return made != makers.end() && made->second;
    };
    return std::any_of(kernels.begin(), kernels.end(), [&](const KernelSpec& kernel) {
        const auto found = runtime.byExecutionKey.find(kernel.execution);
        return found == runtime.byExecutionKey.end() ||
               (!hasCode(found->second->cpuExecutions, kernel.execution) &&
                !hasCode(found->second->cudaExecutions, kernel.execution));
    });
}

std::vector<const VariantSpec*> runnableVariants(const PipelineSpec& pipeline) {
    std::vector<const VariantSpec*> runnable;
    for (const VariantSpec& variant : pipeline.variants)
        if (!isRecordedOnly(pipeline, variant)) runnable.push_back(&variant);
    return runnable;
}

std::unique_ptr<KernelExecution> makeRuntimeExecution(BackendKind backend, std::string_view key) {
    ExecutionMaker maker;
    {
        RuntimeStore& runtime = store();
        std::lock_guard lock(runtime.mutex);
        const auto found = runtime.byExecutionKey.find(key);
        if (found == runtime.byExecutionKey.end()) return nullptr;
        const auto& makers = backend == BackendKind::Cpu ? found->second->cpuExecutions
                                                         : found->second->cudaExecutions;
        const auto made = makers.find(key);
        if (made == makers.end()) return nullptr;
        maker = made->second;
    }
    // Made outside the lock: a maker may take its time (nothing compiles before load()).
    return maker ? maker() : nullptr;
}

}  // namespace fusescope
