#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"

#include <cuda_runtime_api.h>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {

namespace {

std::uint64_t gridBlocksOn(const TiledDeviceFacts& device, const LessonTiles& tiles,
                           const MlpShape& shape) {
    return lessonTiledBlocksPerMultiprocessor(tiles, shape.M, shape.H, device.multiprocessors);
}

int stagesOn(const TiledDeviceFacts& device, const LessonTiles& tiles, DType dtype,
             const MlpShape& shape) {
    return lessonTiledStages(tiles, dtype, static_cast<std::uint64_t>(device.sharedOptIn),
                             device.major, gridBlocksOn(device, tiles, shape));
}

int minBlocksOn(const TiledDeviceFacts& device, const LessonTiles& tiles, DType dtype,
                const MlpShape& shape, int stages) {
    return lessonTiledMinBlocks(tiles, dtype, stages,
                                static_cast<std::uint64_t>(device.sharedOptIn), device.major,
                                gridBlocksOn(device, tiles, shape));
}

}  // namespace

Result<CompileRequest> lessonTiledRequestForDevice(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const int stages = stagesOn(*device, tiles, dtype, shape);
    return lessonTiledCompileRequest(tiles, dtype, stages,
                                     minBlocksOn(*device, tiles, dtype, shape, stages),
                                     device->major, device->minor);
}

Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const int stages = stagesOn(*device, tiles, dtype, shape);
    const int minBlocks = minBlocksOn(*device, tiles, dtype, shape, stages);
    const std::string key = "lesson " + std::to_string(tiles.blockM) + " " +
                            std::to_string(tiles.blockN) + " " + std::to_string(tiles.blockH) +
                            " " + std::to_string(tiles.blockI) + " " +
                            std::string(dtypeName(dtype)) + " " + std::to_string(stages) + " " +
                            std::to_string(minBlocks);
    return tiledKernelFor(key, [&]() -> Result<const TiledKernel*> {
        const CompileRequest request = lessonTiledCompileRequest(tiles, dtype, stages, minBlocks,
                                                                 device->major, device->minor);
        return loadTiledKernel(request, kLessonTiledFullKernel, kLessonTiledEdgeKernel,
                               lessonTiledSharedBytes(tiles, dtype, stages, device->major), stages,
                               lessonTiledThreads(tiles, dtype, device->major),
                               "tiled lesson kernel");
    });
}

Status launchLessonTiled(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                         const MlpShape& shape, const void* x, const void* gate, const void* up,
                         const void* down, void* out, void* stream) {
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, tiles.blockM)),
                    static_cast<unsigned>(ceilDiv(shape.H, tiles.blockN)));
    int m = static_cast<int>(shape.M), h = static_cast<int>(shape.H), i = static_cast<int>(shape.I);
    void* args[] = {&x, &gate, &up, &down, &out, &m, &h, &i};
    const void* entry = lessonTiledFull(tiles, shape) ? kernel.full : kernel.edge;
    return cudaStatus(cudaLaunchKernel(entry, grid, dim3(static_cast<unsigned>(kernel.threads)),
                                       args, kernel.sharedBytes, static_cast<cudaStream_t>(stream)),
                      "swiglu_mlp_lesson_tiled launch");
}

KernelResources lessonTiledResources(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                                     const MlpShape& shape) {
    return tiledKernelResources(kernel, lessonTiledFull(tiles, shape), kernel.threads,
                                static_cast<std::uint64_t>(ceilDiv(shape.M, tiles.blockM) *
                                                           ceilDiv(shape.H, tiles.blockN)));
}

}  // namespace fusescope::mlp
