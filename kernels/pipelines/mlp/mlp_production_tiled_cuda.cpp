#include "pipelines/mlp/mlp_production_tiled_cuda.h"

#include <cuda_runtime_api.h>

#include "pipelines/mlp/mlp_production_tiled.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {
namespace {

std::uint64_t gridBlocks(const production::Tiles& tiles, const MlpShape& shape) {
    return static_cast<std::uint64_t>(ceilDiv(shape.M, tiles.tileM) *
                                      ceilDiv(shape.I, tiles.tileI));
}

const void* entryFor(const TiledKernel& kernel, const production::Tiles& tiles,
                     const MlpShape& shape) {
    return productionTiledFull(tiles, shape) ? kernel.full : kernel.edge;
}

}  // namespace

Result<CompileRequest> productionTiledRequestForDevice(const production::Tiles& tiles) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const int minBlocks = productionTiledMinBlocks(
        tiles, static_cast<std::uint64_t>(device->sharedPerMultiprocessor));
    return productionTiledCompileRequest(tiles, minBlocks, device->major, device->minor);
}

Result<const TiledKernel*> productionTiledKernel(const production::Tiles& tiles,
                                                 const CancelToken& cancel) {
    const std::string key =
        "production " + std::to_string(tiles.tileM) + " " + std::to_string(tiles.tileI);
    return tiledKernelFor(key, [&]() -> Result<const TiledKernel*> {
        Result<CompileRequest> request = productionTiledRequestForDevice(tiles);
        if (!request) return request.status();
        return loadTiledKernel(*request,
                               {kProductionTiledFullKernel, {}, kProductionTiledEdgeKernel},
                               productionTiledSharedBytes(tiles), kProductionTiledStages,
                               kProductionTiledThreads, "tiled gate_up kernel", cancel);
    });
}

Status launchProductionTiled(const TiledKernel& kernel, const production::Tiles& tiles,
                             const MlpShape& shape, const void* x, const void* gate, const void* up,
                             void* h, void* stream) {
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, tiles.tileM)),
                    static_cast<unsigned>(ceilDiv(shape.I, tiles.tileI)));
    int m = static_cast<int>(shape.M), hidden = static_cast<int>(shape.H),
        i = static_cast<int>(shape.I);
    // Rows of x, gate and up are whole 16-byte units: cp.async with zero fill, else elements.
    bool aligned = shape.H % 8 == 0;
    void* args[] = {&x, &gate, &up, &h, &m, &hidden, &i, &aligned};
    return cudaStatus(
        cudaLaunchKernel(entryFor(kernel, tiles, shape), grid, dim3(kProductionTiledThreads), args,
                         kernel.sharedBytes, static_cast<cudaStream_t>(stream)),
        "mlp_gate_up_silu_tiled launch");
}

KernelResources productionTiledResources(const TiledKernel& kernel, const production::Tiles& tiles,
                                         const MlpShape& shape) {
    return tiledKernelResources(kernel, entryFor(kernel, tiles, shape), kProductionTiledThreads,
                                gridBlocks(tiles, shape));
}

}  // namespace fusescope::mlp
