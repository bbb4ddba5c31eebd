#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <map>

#include "pipelines/mlp/mlp_build_timing_cuda.h"
#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {

namespace {

// The plan the rules give these tiles and shape on this device (the first build).
LessonTiledPlan planOn(const TiledDeviceFacts& device, const LessonTiles& tiles, DType dtype,
                       const MlpShape& shape) {
    return lessonTiledPlan(
        tiles, dtype, device.major, static_cast<std::uint64_t>(device.sharedOptIn),
        lessonTiledBlocksPerMultiprocessor(tiles, shape.M, shape.H, device.multiprocessors));
}

// The entry point that runs this shape.
const void* entryFor(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                     const MlpShape& shape) {
    switch (lessonTiledEntry(tiles, shape)) {
        case LessonTiledEntry::Full:
            return kernel.full;
        case LessonTiledEntry::Rows:
            return kernel.rows;
        case LessonTiledEntry::Edge:
            break;
    }
    return kernel.edge;
}

std::string keyOf(const LessonTiles& tiles, DType dtype, const LessonTiledPlan& plan) {
    return "lesson " + std::to_string(tiles.blockM) + " " + std::to_string(tiles.blockN) + " " +
           std::to_string(tiles.blockH) + " " + std::to_string(tiles.blockI) + " " +
           std::string(dtypeName(dtype)) + " " + std::to_string(plan.stages) + " " +
           std::to_string(plan.copiesAhead) + " " + std::to_string(plan.minBlocks) + " " +
           std::to_string(plan.threads) + " " + std::to_string(static_cast<int>(plan.refill));
}

// Timing chooses per shape: the same build may rank differently at another M, H or I.
std::string choiceKeyOf(const LessonTiles& tiles, DType dtype, const LessonTiledPlan& rules,
                        const MlpShape& shape) {
    return keyOf(tiles, dtype, rules) + " at " + std::to_string(shape.M) + "x" +
           std::to_string(shape.H) + "x" + std::to_string(shape.I);
}

// What timing chose for the rules' plan at a shape: the loaded build that runs, and why in words.
struct BuildChoice {
    const LessonTiledKernel* kernel = nullptr;
    std::string words;
};

// Process-wide, as the loaded kernels are; only the thread that owns CUDA reads or writes it.
std::map<std::string, BuildChoice>& choices() {
    static std::map<std::string, BuildChoice> made;
    return made;
}

Result<const LessonTiledKernel*> kernelFor(const TiledDeviceFacts& device, const LessonTiles& tiles,
                                           DType dtype, const LessonTiledPlan& plan,
                                           const CancelToken& cancel) {
    return tiledKernelFor(keyOf(tiles, dtype, plan), [&]() -> Result<const TiledKernel*> {
        return loadTiledKernel(
            lessonTiledCompileRequest(tiles, dtype, plan, device.major, device.minor),
            {kLessonTiledFullKernel, kLessonTiledRowsKernel, kLessonTiledEdgeKernel},
            plan.sharedBytes, plan.stages, plan.threads, "tiled lesson kernel", cancel);
    });
}

std::string millisecondsText(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", ms);
    return text;
}

}  // namespace

Result<std::vector<CompileRequest>> lessonTiledRequestsForDevice(const LessonTiles& tiles,
                                                                 DType dtype,
                                                                 const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    std::vector<CompileRequest> requests;
    for (const LessonTiledPlan& build : lessonTiledBuilds(planOn(*device, tiles, dtype, shape)))
        requests.push_back(
            lessonTiledCompileRequest(tiles, dtype, build, device->major, device->minor));
    return requests;
}

Status compileLessonTiledBuilds(const LessonTiles& tiles, DType dtype, const MlpShape& shape,
                                const CancelToken& cancel) {
    Result<std::vector<CompileRequest>> requests =
        lessonTiledRequestsForDevice(tiles, dtype, shape);
    if (!requests) return requests.status();
    Result<ModuleCompiler*> compiler = runtimeCompiler();
    if (!compiler) return compiler.status();
    Result<std::vector<CompiledModule>> modules = compileAll(**compiler, *requests, cancel);
    return modules ? Status::ok() : modules.status();
}

// Called at every launch: the request (with the kernel's source) is built only where the map has
// no kernel for the key yet.
Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape,
                                                   const CancelToken& cancel) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const LessonTiledPlan rules = planOn(*device, tiles, dtype, shape);
    const auto chosen = choices().find(choiceKeyOf(tiles, dtype, rules, shape));
    if (chosen != choices().end()) return chosen->second.kernel;
    return kernelFor(*device, tiles, dtype, rules, cancel);
}

Result<bool> chooseLessonTiledBuild(const LessonTiles& tiles, DType dtype, const MlpShape& shape,
                                    const LessonTiledBuffers& buffers, void* stream,
                                    const CancelToken& cancel) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const LessonTiledPlan rules = planOn(*device, tiles, dtype, shape);
    const std::string key = choiceKeyOf(tiles, dtype, rules, shape);
    if (choices().count(key)) return false;
    const std::vector<LessonTiledPlan> builds = lessonTiledBuilds(rules);
    std::vector<const LessonTiledKernel*> kernels;
    std::vector<BuildLaunch> launches;
    for (const LessonTiledPlan& build : builds) {
        Result<const LessonTiledKernel*> kernel = kernelFor(*device, tiles, dtype, build, cancel);
        if (!kernel) return kernel.status();
        kernels.push_back(*kernel);
        launches.push_back([&, loaded = *kernel] {
            return launchLessonTiled(*loaded, tiles, shape, buffers.x, buffers.gate, buffers.up,
                                     buffers.down, buffers.out, stream);
        });
    }
    Result<std::vector<double>> times =
        timeBuildsInTurn(launches, kLessonBuildRounds, stream, cancel);
    if (!times) return times.status();
    // The rules' plan stays unless another build is clearly faster: a choice inside the noise
    // would flip from run to run.
    std::size_t best = 0;
    for (std::size_t b = 1; b < builds.size(); ++b)
        if ((*times)[b] < (*times)[best] * (1.0 - kLessonBuildMargin)) best = b;
    std::string words = lessonTiledBoundText(builds[best]) + (best == 0 ? " kept: " : " chosen: ") +
                        millisecondsText((*times)[best]);
    for (std::size_t b = 0; b < builds.size(); ++b)
        if (b != best)
            words += ", against " + millisecondsText((*times)[b]) + " with " +
                     lessonTiledBoundText(builds[b]);
    choices()[key] = BuildChoice{kernels[best], words};
    return true;
}

std::string lessonTiledChoice(const LessonTiles& tiles, DType dtype, const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return {};
    const auto found =
        choices().find(choiceKeyOf(tiles, dtype, planOn(*device, tiles, dtype, shape), shape));
    return found == choices().end() ? std::string() : found->second.words;
}

Status launchLessonTiled(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                         const MlpShape& shape, const void* x, const void* gate, const void* up,
                         const void* down, void* out, void* stream) {
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, tiles.blockM)),
                    static_cast<unsigned>(ceilDiv(shape.H, tiles.blockN)));
    int m = static_cast<int>(shape.M), h = static_cast<int>(shape.H), i = static_cast<int>(shape.I);
    void* args[] = {&x, &gate, &up, &down, &out, &m, &h, &i};
    return cudaStatus(cudaLaunchKernel(entryFor(kernel, tiles, shape), grid,
                                       dim3(static_cast<unsigned>(kernel.threads)), args,
                                       kernel.sharedBytes, static_cast<cudaStream_t>(stream)),
                      "swiglu_mlp_lesson_tiled launch");
}

KernelResources lessonTiledResources(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                                     const MlpShape& shape) {
    return tiledKernelResources(kernel, entryFor(kernel, tiles, shape), kernel.threads,
                                static_cast<std::uint64_t>(ceilDiv(shape.M, tiles.blockM) *
                                                           ceilDiv(shape.H, tiles.blockN)));
}

}  // namespace fusescope::mlp
