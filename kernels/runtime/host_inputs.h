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

// Compares `output` against the pipeline's reference over every element.
CheckResult checkOutput(const PipelineSpec& pipeline, const float* const* inputs,
                        const float* output, std::uint64_t n);

}  // namespace fusescope
