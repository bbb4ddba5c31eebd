#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"

#include <cuda_runtime_api.h>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {

namespace {

// The shared memory a block may use, the grid's blocks a multiprocessor, the copy stages, the
// launch-bounds minimum and the threads of these tiles and shape on this device.
struct LessonPlan {
    std::uint64_t sharedLimit = 0;
    std::uint64_t gridBlocks = 0;
    int stages = 0;
    int minBlocks = 0;
    int threads = 0;
};

LessonPlan planOn(const TiledDeviceFacts& device, const LessonTiles& tiles, DType dtype,
                  const MlpShape& shape) {
    const auto sharedLimit = static_cast<std::uint64_t>(device.sharedOptIn);
    const std::uint64_t gridBlocks =
        lessonTiledBlocksPerMultiprocessor(tiles, shape.M, shape.H, device.multiprocessors);
    LessonPlan plan;
    plan.sharedLimit = sharedLimit;
    plan.gridBlocks = gridBlocks;
    plan.stages = lessonTiledStages(tiles, dtype, sharedLimit, device.major, gridBlocks);
    plan.minBlocks =
        lessonTiledMinBlocks(tiles, dtype, plan.stages, sharedLimit, device.major, gridBlocks);
    plan.threads = lessonTiledThreads(tiles, dtype, device.major, sharedLimit, gridBlocks);
    return plan;
}

CompileRequest requestOn(const TiledDeviceFacts& device, const LessonTiles& tiles, DType dtype,
                         const LessonPlan& plan) {
    return lessonTiledCompileRequest(tiles, dtype, plan.stages, plan.minBlocks, device.major,
                                     device.minor, plan.sharedLimit, plan.gridBlocks);
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
    return requestOn(*device, tiles, dtype, planOn(*device, tiles, dtype, shape));
}

// Called at every launch: the request (with the kernel's source) is built only where the map has
// no kernel for the key yet.
Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const LessonPlan plan = planOn(*device, tiles, dtype, shape);
    const std::string key =
        "lesson " + std::to_string(tiles.blockM) + " " + std::to_string(tiles.blockN) + " " +
        std::to_string(tiles.blockH) + " " + std::to_string(tiles.blockI) + " " +
        std::string(dtypeName(dtype)) + " " + std::to_string(plan.stages) + " " +
        std::to_string(plan.minBlocks) + " " + std::to_string(plan.threads);
    return tiledKernelFor(key, [&]() -> Result<const TiledKernel*> {
        return loadTiledKernel(
            requestOn(*device, tiles, dtype, plan),
            {kLessonTiledFullKernel, kLessonTiledRowsKernel, kLessonTiledEdgeKernel},
            lessonTiledSharedBytes(tiles, dtype, plan.stages, device->major), plan.stages,
            plan.threads, "tiled lesson kernel");
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
