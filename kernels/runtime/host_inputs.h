#pragma once
// Deterministic random inputs and the correctness check, both on the host.
#include <cstdint>
#include <vector>

#include "pipelines/registry.h"
#include "runtime/runner.h"

namespace fusescope {

// Uniform values in [low, high], a pure function of (seed, stream, i): any N, any thread split.
void fillUniform(float* data, std::uint64_t n, std::uint32_t seed, std::uint32_t stream, float low,
                 float high);

// The bit pattern written over outputs before a run; a NaN, so it never passes a comparison.
constexpr unsigned char kPoisonByte = 0xFF;

// Up to this many elements the reference (in double) is computed for every element; above it,
// for this many elements spread over the output. Every element is still checked for having been
// written. Computing exp in double for every element of a large output took as long as the run.
constexpr std::uint64_t kReferenceSampleElements = std::uint64_t{1} << 20;

// Compares `output` against the pipeline's reference (CheckResult::comparedElements says how
// many elements were compared) and checks every element for the poison.
CheckResult checkOutput(const PipelineSpec& pipeline, const float* const* inputs,
                        const float* output, std::uint64_t n);

}  // namespace fusescope
