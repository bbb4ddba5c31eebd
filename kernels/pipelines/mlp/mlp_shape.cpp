#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

double usefulFlops(const MlpShape& shape) {
    return 3.0 * 2.0 * static_cast<double>(shape.M) * static_cast<double>(shape.H) *
           static_cast<double>(shape.I);
}

}  // namespace fusescope::mlp
