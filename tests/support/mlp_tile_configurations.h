#pragma once
// The MLP tile configurations and hand-made device limits the tile tests build their cases from:
// the lesson fusion's four block sizes, the production fusion's two tiles, and a test GPU with
// the multiprocessors and shared memory a case needs.
#include <cstdint>

#include "pipelines/registry.h"
#include "tiles/tile_types.h"

namespace testsupport {

inline fusescope::tiles::TileConfiguration lessonTiles(std::uint64_t m, std::uint64_t h,
                                                       std::uint64_t i, fusescope::DType dtype,
                                                       int bm, int bn, int bh, int bi) {
    fusescope::tiles::TileConfiguration c;
    c.pipeline = "mlp";
    c.variant = "lesson_fused";
    c.problem.dimensions = {{"M", m}, {"H", h}, {"I", i}};
    c.problem.dtype = dtype;
    c.problem.tuning = {{"block_m", bm}, {"block_n", bn}, {"block_h", bh}, {"block_i", bi}};
    return c;
}

// The production fusion starts from the pipeline's default problem: its tuning keys beyond the
// two tiles keep their defaults.
inline fusescope::tiles::TileConfiguration productionTiles(std::uint64_t m, std::uint64_t h,
                                                           std::uint64_t i, fusescope::DType dtype,
                                                           int tileM, int tileI) {
    fusescope::tiles::TileConfiguration c;
    c.pipeline = "mlp";
    c.variant = "production";
    c.problem = fusescope::findPipeline("mlp")->defaultProblem();
    c.problem.dimensions = {{"M", m}, {"H", h}, {"I", i}};
    c.problem.dtype = dtype;
    c.problem.tuning["tile_m"] = tileM;
    c.problem.tuning["tile_i"] = tileI;
    return c;
}

// A test GPU: 1024 threads a block, 1000 GB/s and 100 TFLOP/s, the rest as given.
inline fusescope::tiles::DeviceLimits testGpuLimits(int multiprocessors,
                                                    std::uint64_t sharedKibPerBlock) {
    fusescope::tiles::DeviceLimits l;
    l.name = "test GPU";
    l.multiprocessors = multiprocessors;
    l.maxThreadsPerBlock = 1024;
    l.sharedBytesPerBlockOptIn = sharedKibPerBlock * 1024;
    l.copyBandwidthGBps = 1000.0;
    l.computeTflops = 100.0;
    return l;
}

// The smallest lesson configuration the worker tests run on the CPU backend in milliseconds.
inline fusescope::tiles::TileConfiguration tinyTileConfiguration() {
    return lessonTiles(4, 64, 64, fusescope::DType::Bfloat16, 16, 16, 16, 16);
}

}  // namespace testsupport
