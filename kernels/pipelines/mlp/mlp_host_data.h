#pragma once
// Host copies of the MLP's matrices in their storage type (float32 or bfloat16 bits), with the
// conversions, the random fill and the NaN poison that the checks use.
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/cancel_token.h"
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

// Round to nearest even, as the GPU's float -> bfloat16 conversion does; NaN stays NaN.
inline std::uint16_t toBfloat16(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>(bits >> 16);
}

inline float fromBfloat16(std::uint16_t value) {
    const std::uint32_t bits = static_cast<std::uint32_t>(value) << 16;
    float result;
    std::memcpy(&result, &bits, sizeof result);
    return result;
}

// What storing a float in `dtype` keeps of it (tf32 is stored as float32).
inline float roundToStorage(float value, DType dtype) {
    return storesBfloat16(dtype) ? fromBfloat16(toBfloat16(value)) : value;
}

// A float rounded to TF32 as the GPU's cvt.rna.tf32.f32 does: the 13 low mantissa bits dropped,
// to nearest with ties away from zero (a carry may reach the exponent; the largest floats round
// to infinity); infinities and NaN unchanged. The result is a float whose low 13 bits are zero.
inline float roundToTf32(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & ~0x1fffu;
    float result;
    std::memcpy(&result, &bits, sizeof result);
    return result;
}

// What a product's tensor-core operand keeps of a stored value: TF32 for tf32, all of it otherwise
// (float32 multiplies in full; bfloat16 values are exact already).
inline float roundToOperand(float value, DType dtype) {
    return dtype == DType::Tf32 ? roundToTf32(value) : value;
}

class HostMatrix {
  public:
    HostMatrix() = default;
    HostMatrix(DType dtype, std::int64_t rows, std::int64_t cols);

    DType dtype() const { return dtype_; }
    std::int64_t rows() const { return rows_; }
    std::int64_t cols() const { return cols_; }
    std::size_t elements() const { return static_cast<std::size_t>(rows_ * cols_); }
    std::size_t bytes() const { return storage_.size(); }
    void* data() { return storage_.data(); }
    const void* data() const { return storage_.data(); }

    float at(std::size_t index) const;
    // Incomplete once `cancel` is set.
    std::vector<float> toFloats(int threads, const CancelToken& cancel = {}) const;
    // Rounds each value to the storage type.
    void assign(const std::vector<float>& values, int threads);

    // Uniform in [-scale, scale), the same values for the same seed on every machine.
    // Stops early once `cancel` is set.
    void fillRandom(std::uint64_t seed, float scale, int threads, const CancelToken& cancel = {});
    // NaN bits in every element, so that an element a kernel never wrote is found.
    void poison();
    std::size_t countNaN(int threads) const;

  private:
    DType dtype_ = DType::Float32;
    std::int64_t rows_ = 0;
    std::int64_t cols_ = 0;
    std::vector<unsigned char> storage_;
};

// The inputs of one problem: gate and up as one (2I x H) matrix, gate's rows first, which the
// merged variant needs and every other variant accepts.
struct MlpHostInputs {
    HostMatrix x;       // M x H
    HostMatrix gateUp;  // 2I x H
    HostMatrix down;    // H x I
};

// Random inputs scaled so that every stage's values stay of order one.
MlpHostInputs makeRandomInputs(const MlpShape& shape, DType dtype, std::uint64_t seed, int threads,
                               const CancelToken& cancel = {});
}  // namespace fusescope::mlp
