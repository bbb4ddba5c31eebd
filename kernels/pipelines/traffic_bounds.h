#pragma once
// Two lower bounds the registry's traffic model implies, beside the bytes and FLOPs it charges:
// - distinct bytes: each buffer a kernel touches read at most once and written at most once.
//   Re-reads of a tile are requests the L1 and L2 can serve; the distinct bytes are what must
//   reach memory at least, the DRAM estimate where no counter measured it.
// - useful FLOPs: what the pipeline's reference variant (the first, framework-style one, which
//   computes every value once) executes. A fusion that recomputes values executes more.
#include <cstdint>
#include <optional>

#include "pipelines/registry.h"

namespace fusescope {

struct DistinctBytes {
    std::uint64_t read = 0;
    std::uint64_t written = 0;
    std::uint64_t total() const { return read + written; }
};

// One kernel of `variant` for `problem`: every buffer's traffic capped at the buffer's size.
DistinctBytes distinctBytes(const KernelSpec& kernel, const VariantSpec& variant,
                            const Problem& problem);

// The FLOPs of the pipeline's first variant for `problem`; nullopt where the pipeline has no
// variant or declares no FLOPs.
std::optional<double> usefulFlops(const PipelineSpec& pipeline, const Problem& problem);

}  // namespace fusescope
