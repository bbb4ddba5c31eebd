#pragma once
// Where kernels run: what a variant's declaration may need to know to say whether it can run a
// problem there (registry.h), and what the backends implement (kernel_execution.h).

namespace fusescope {

enum class BackendKind { Cpu, Cuda };

}  // namespace fusescope
