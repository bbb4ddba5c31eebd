#include "pipelines/element_operations.h"

#include <cmath>

namespace fusescope {

std::optional<ElementOp> elementOpNamed(std::string_view name) {
    for (const ElementOpInfo& info : kElementOps)
        if (info.name == name) return info.op;
    return std::nullopt;
}

double applyElementOp(ElementOp op, double a, double b) {
    switch (op) {
        case ElementOp::Add:
            return a + b;
        case ElementOp::Subtract:
            return a - b;
        case ElementOp::Multiply:
            return a * b;
        case ElementOp::Divide:
            return a / b;
        case ElementOp::Negate:
            return -a;
        case ElementOp::Exp:
            return std::exp(a);
        case ElementOp::Log:
            return std::log(a);
        case ElementOp::Sqrt:
            return std::sqrt(a);
        case ElementOp::Rsqrt:
            return 1.0 / std::sqrt(a);
        case ElementOp::Sigmoid:
            return 1.0 / (1.0 + std::exp(-a));
        case ElementOp::Silu:
            return a / (1.0 + std::exp(-a));
        case ElementOp::Tanh:
            return std::tanh(a);
        case ElementOp::Gelu:
            return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0)));
        case ElementOp::Abs:
            return std::abs(a);
        case ElementOp::Min:
            return std::fmin(a, b);
        case ElementOp::Max:
            return std::fmax(a, b);
    }
    return a;
}

}  // namespace fusescope
