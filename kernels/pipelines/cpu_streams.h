#pragma once
// The loops every CPU kernel is made of: map one or two input arrays to an output over
// [begin, end). Each comes twice: SIMD, for vector width 4, written so the compiler vectorizes
// it for the instruction set of the file that includes it; and scalar, for width 1, which
// handles one element per step, as the lesson's scalar kernels do. Internal linkage for the
// same reason as cpu_vector_math.h.
#include <cstdint>

namespace fusescope {
namespace {

// An empty asm statement that claims to change the index keeps the compiler from vectorizing
// the scalar loops, so width 1 really runs one element per instruction.
inline void keepScalar(std::uint64_t& index) {
    asm volatile("" : "+r"(index));
}

// The two ways to run a loop, as types, so each kernel is written once for both widths.
struct SimdLoops {
    template <typename Op>
    static void map(const float* __restrict in, float* __restrict out, std::uint64_t begin,
                    std::uint64_t end, Op op) {
        for (std::uint64_t i = begin; i < end; ++i) out[i] = op(in[i]);
    }
    template <typename Op>
    static void zip(const float* __restrict a, const float* __restrict b, float* __restrict out,
                    std::uint64_t begin, std::uint64_t end, Op op) {
        for (std::uint64_t i = begin; i < end; ++i) out[i] = op(a[i], b[i]);
    }
};
struct ScalarLoops {
    template <typename Op>
    static void map(const float* in, float* out, std::uint64_t begin, std::uint64_t end, Op op) {
        for (std::uint64_t i = begin; i < end; ++i) {
            keepScalar(i);
            out[i] = op(in[i]);
        }
    }
    template <typename Op>
    static void zip(const float* a, const float* b, float* out, std::uint64_t begin,
                    std::uint64_t end, Op op) {
        for (std::uint64_t i = begin; i < end; ++i) {
            keepScalar(i);
            out[i] = op(a[i], b[i]);
        }
    }
};

// The kernels' arguments are buffer pointers in the order the registry declares them.
inline const float* input(void* const* args, int index) {
    return static_cast<const float*>(args[index]);
}
inline float* output(void* const* args, int index) {
    return static_cast<float*>(args[index]);
}

}  // namespace
}  // namespace fusescope
