#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"

#include <cuda_runtime_api.h>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {

namespace {

// The plan of these tiles and shape on this device.
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

}  // namespace

Result<CompileRequest> lessonTiledRequestForDevice(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    return lessonTiledCompileRequest(tiles, dtype, planOn(*device, tiles, dtype, shape),
                                     device->major, device->minor);
}

// Called at every launch: the request (with the kernel's source) is built only where the map has
// no kernel for the key yet.
Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const LessonTiledPlan plan = planOn(*device, tiles, dtype, shape);
    const std::string key =
        "lesson " + std::to_string(tiles.blockM) + " " + std::to_string(tiles.blockN) + " " +
        std::to_string(tiles.blockH) + " " + std::to_string(tiles.blockI) + " " +
        std::string(dtypeName(dtype)) + " " + std::to_string(plan.stages) + " " +
        std::to_string(plan.copiesAhead) + " " + std::to_string(plan.minBlocks) + " " +
        std::to_string(plan.threads) + " " + std::to_string(static_cast<int>(plan.refill));
    return tiledKernelFor(key, [&]() -> Result<const TiledKernel*> {
        return loadTiledKernel(
            lessonTiledCompileRequest(tiles, dtype, plan, device->major, device->minor),
            {kLessonTiledFullKernel, kLessonTiledRowsKernel, kLessonTiledEdgeKernel},
            plan.sharedBytes, plan.stages, plan.threads, "tiled lesson kernel");
    });
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
