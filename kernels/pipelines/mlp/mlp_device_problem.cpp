#include "pipelines/mlp/mlp_device_problem.h"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/registry.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {
namespace {

Status allocate(void** pointer, std::size_t bytes, const char* what) {
    return cudaStatus(cudaMalloc(pointer, std::max<std::size_t>(bytes, 16)), what);
}

Status upload(void* device, const HostMatrix& host, const char* what) {
    return cudaStatus(cudaMemcpy(device, host.data(), host.bytes(), cudaMemcpyHostToDevice), what);
}

}  // namespace

Result<std::unique_ptr<MlpDeviceProblem>> MlpDeviceProblem::create(const MlpShape& shape,
                                                                   DType dtype,
                                                                   const MlpHostInputs& inputs) {
    std::unique_ptr<MlpDeviceProblem> p(new MlpDeviceProblem());
    p->shape_ = shape;
    p->dtype_ = dtype;
    std::uint64_t scratch = 0;
    Problem problem;
    for (const auto& [name, value] :
         {std::pair<const char*, std::int64_t>{"M", shape.M}, {"H", shape.H}, {"I", shape.I}})
        problem.dimensions[name] = static_cast<std::uint64_t>(value);
    problem.dtype = dtype;
    for (const VariantSpec& variant : findPipeline(kPipelineName)->variants)
        for (const BufferSpec& buffer : variant.buffers)
            if (buffer.role == BufferRole::Scratch)
                scratch = std::max(scratch, buffer.bytes(problem));
    const std::size_t outBytes = static_cast<std::size_t>(shape.M * shape.H) * dtypeBytes(dtype);
    for (Status s : {allocate(&p->x_, inputs.x.bytes(), "cudaMalloc (x)"),
                     allocate(&p->gateUp_, inputs.gateUp.bytes(), "cudaMalloc (gate_up)"),
                     allocate(&p->down_, inputs.down.bytes(), "cudaMalloc (down)"),
                     allocate(&p->scratch_, scratch, "cudaMalloc (scratch)"),
                     allocate(&p->out_, outBytes, "cudaMalloc (out)")})
        if (!s) return s;
    for (Status s :
         {upload(p->x_, inputs.x, "upload x"), upload(p->gateUp_, inputs.gateUp, "upload gate_up"),
          upload(p->down_, inputs.down, "upload down")})
        if (!s) return s;
    // A copy from pageable memory can return before its DMA lands, and the context's stream does
    // not wait for the legacy default stream.
    if (Status s = cudaStatus(cudaDeviceSynchronize(), "upload inputs"); !s) return s;
    return p;
}

MlpDeviceProblem::~MlpDeviceProblem() {
    // Freeing cannot be reported from a destructor; nothing else owns these.
    for (void* pointer : {x_, gateUp_, down_, scratch_, out_})
        if (pointer != nullptr) (void)cudaFree(pointer);
}

MlpDeviceBuffers MlpDeviceProblem::buffers() const {
    return {x_, gateUp_, down_, scratch_, out_};
}

Status MlpDeviceProblem::poisonOutput(MlpCudaContext& context) {
    const std::size_t bytes = static_cast<std::size_t>(shape_.M * shape_.H) * dtypeBytes(dtype_);
    return cudaStatus(
        cudaMemsetAsync(out_, 0xff, bytes, static_cast<cudaStream_t>(context.stream())),
        "cudaMemsetAsync (poison out)");
}

Status MlpDeviceProblem::download(MlpCudaContext& context, HostMatrix& out) {
    if (Status s = cudaStatus(cudaStreamSynchronize(static_cast<cudaStream_t>(context.stream())),
                              "MLP kernels");
        !s)
        return s;
    return cudaStatus(cudaMemcpy(out.data(), out_, out.bytes(), cudaMemcpyDeviceToHost),
                      "download out");
}

}  // namespace fusescope::mlp
