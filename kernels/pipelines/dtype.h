#pragma once
// The element types a pipeline stores and multiplies in: plain values, no containers, so that
// device code (.cu) can name them too.
#include <cstddef>
#include <optional>
#include <string_view>

namespace fusescope {

// How the buffers are stored and multiplied. bfloat16 is storage only: every product accumulates
// in float32. tf32 stores float32 but multiplies on the tensor cores with TF32 operands (10-bit
// mantissa) and float32 accumulation: the default of Triton's tl.dot on float32, labelled so
// that it is never mistaken for float32 math.
enum class DType { Float32, Bfloat16, Tf32 };

std::string_view dtypeName(DType dtype);  // "float32", "bfloat16", "tf32": CLI and recordings
// What the UI and captions show: "float32", "bfloat16", "float32 (TF32 math)".
std::string_view dtypeTitle(DType dtype);
std::size_t dtypeBytes(DType dtype);  // bytes per stored element (tf32: 4, stored as float32)
// Accepts the names above and the short forms fp32/f32 and bf16.
std::optional<DType> parseDType(std::string_view text);

// Whether the buffers hold bfloat16 (otherwise float32: float32 and tf32).
constexpr bool storesBfloat16(DType dtype) {
    return dtype == DType::Bfloat16;
}

}  // namespace fusescope
