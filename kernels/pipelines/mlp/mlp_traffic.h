#pragma once
// The traffic model of every MLP variant: per kernel, the bytes each buffer is read and written
// (repeated reads of the same bytes counted every time they are requested) and the FLOPs the
// kernel executes (recomputation included). What the L2 absorbs is for measurements to show.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

enum class MlpBuffer { X, Gate, Up, Down, G, U, H, Out };
std::string_view bufferName(MlpBuffer buffer);

struct BufferTraffic {
    MlpBuffer buffer;
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
};

struct KernelTraffic {
    std::string name;
    std::vector<BufferTraffic> buffers;
    double flops = 0;

    std::uint64_t bytesRead() const;
    std::uint64_t bytesWritten() const;
    // The entry for one buffer; zeros when the kernel does not touch it.
    BufferTraffic of(MlpBuffer buffer) const;
};

// The kernels a variant launches for this problem, in order, with the lesson kernel's tiles and
// the production fusion's prefill tiles.
std::vector<KernelTraffic> mlpTraffic(
    MlpVariant variant, const MlpShape& shape, MlpDtype dtype,
    const LessonTiles& tiles = kLessonDefaultTiles,
    const production::Tiles& productionTiles = production::kDefaultTiles);

// Sums over a variant's kernels.
std::uint64_t totalBytes(const std::vector<KernelTraffic>& kernels);
double totalFlops(const std::vector<KernelTraffic>& kernels);

}  // namespace fusescope::mlp
