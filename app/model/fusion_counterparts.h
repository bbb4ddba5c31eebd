#pragma once
// A fused variant set kernel by kernel beside a variant that does its work in other kernels (the
// registry's counterparts), where the fused one is the slower: its kernels' measured times
// beside theirs, and what the run measured of its kernels: the L2 write requests against the
// bytes a kernel writes where it writes sectors in parts (the store pattern), and for each kernel
// that takes longer than its counterparts together, its registers and occupancy (the register
// cost).
#include <QStringList>
#include <string>

#include "model/recording.h"
#include "pipelines/registry.h"

namespace fusescope::model {

// "production is 7.7% slower than merged_gate_up (265 µs against 246 µs): its gemm_gate_up_silu
// takes 190 µs, merged_gate_up's gemm_gate_up 160 µs plus silu_mul 12.0 µs; its gemm_down 60.0 µs,
// merged_gate_up's gemm_down 61.0 µs. gemm_gate_up_silu asks the L2 for 2.00x the bytes of h it
// writes (235 MB of write requests for 117 MB), against 1.00x for gemm_gate_up; it holds 154
// registers a thread, a theoretical occupancy of 18.8%." One entry per counterpart variant the
// fused run is slower than. Against `compared`, a variant the verdict has already set the fused
// one beside, the comparison is not repeated ("Kernel by kernel against unfused: ...").
// The run of this variant that has a time, or nothing (a variant skipped or refused has none).
const VariantResult* timedRunOf(const Recording& recording, const std::string& variant);

QStringList slowerThanCounterparts(const Recording& recording, const VariantSpec& variant,
                                   const VariantResult& fused, const std::string& compared);

}  // namespace fusescope::model
