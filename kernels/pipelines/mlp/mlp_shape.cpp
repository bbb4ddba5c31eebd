#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

std::string_view variantName(MlpVariant variant) {
    switch (variant) {
        case MlpVariant::Unfused:
            return "unfused";
        case MlpVariant::LessonFused:
            return "lesson_fused";
        case MlpVariant::Production:
            return "production";
        case MlpVariant::MergedGateUp:
            return "merged_gate_up";
    }
    return "unknown";
}

std::string_view dtypeName(MlpDtype dtype) {
    switch (dtype) {
        case MlpDtype::Bfloat16:
            return "bfloat16";
        case MlpDtype::Tf32:
            return "tf32";
        case MlpDtype::Float32:
            break;
    }
    return "float32";
}

std::size_t elementBytes(MlpDtype dtype) {
    return storesBfloat16(dtype) ? 2 : 4;
}

double usefulFlops(const MlpShape& shape) {
    return 3.0 * 2.0 * static_cast<double>(shape.M) * static_cast<double>(shape.H) *
           static_cast<double>(shape.I);
}

std::uint64_t scratchBytes(MlpVariant variant, const MlpShape& shape, MlpDtype dtype) {
    const auto mi = static_cast<std::uint64_t>(shape.M * shape.I) * elementBytes(dtype);
    switch (variant) {
        case MlpVariant::Unfused:
        case MlpVariant::MergedGateUp:
            return 3 * mi;  // g, u, h (merged: g and u interleaved per row as gate_up's output)
        case MlpVariant::Production:
            return mi;  // h
        case MlpVariant::LessonFused:
            return 0;
    }
    return 0;
}

}  // namespace fusescope::mlp
