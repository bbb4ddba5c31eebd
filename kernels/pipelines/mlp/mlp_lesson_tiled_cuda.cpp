#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"

#include <cuda_runtime_api.h>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {

namespace {

// What NVRTC compiles for these tiles and shape on this device, and the copy stages it has.
struct LessonBuild {
    int stages = 0;
    CompileRequest request;
};

LessonBuild buildOn(const TiledDeviceFacts& device, const LessonTiles& tiles, DType dtype,
                    const MlpShape& shape) {
    const auto sharedLimit = static_cast<std::uint64_t>(device.sharedOptIn);
    const std::uint64_t gridBlocks =
        lessonTiledBlocksPerMultiprocessor(tiles, shape.M, shape.H, device.multiprocessors);
    LessonBuild build;
    build.stages = lessonTiledStages(tiles, dtype, sharedLimit, device.major, gridBlocks);
    const int minBlocks =
        lessonTiledMinBlocks(tiles, dtype, build.stages, sharedLimit, device.major, gridBlocks);
    build.request = lessonTiledCompileRequest(tiles, dtype, build.stages, minBlocks, device.major,
                                              device.minor);
    return build;
}

}  // namespace

Result<CompileRequest> lessonTiledRequestForDevice(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    return buildOn(*device, tiles, dtype, shape).request;
}

Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const LessonBuild build = buildOn(*device, tiles, dtype, shape);
    // The request's options name everything that makes two kernels differ.
    std::string key = "lesson " + build.request.architecture;
    for (const std::string& option : build.request.options) key += " " + option;
    return tiledKernelFor(key, [&]() -> Result<const TiledKernel*> {
        return loadTiledKernel(build.request, kLessonTiledFullKernel, kLessonTiledEdgeKernel,
                               lessonTiledSharedBytes(tiles, dtype, build.stages, device->major),
                               build.stages, lessonTiledThreads(tiles, dtype, device->major),
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
