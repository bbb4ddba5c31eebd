#pragma once
// Asynchronous global-to-shared copies (cp.async, sm_80+) and the tensor-core fragments
// (ldmatrix, mma.m16n8k16 bfloat16 with float32 accumulation) that the tiled MLP kernels share.
// Where the run-time compiled kernels' prelude has the same PTX wrapper, this calls it, so that
// each instruction is written once. No source may include the prelude itself as well as this.
#include <cuda_bf16.h>

#include "pipelines/mlp/mlp_tiled_prelude.cuh"

namespace fusescope::mlp::device {

__device__ __forceinline__ unsigned sharedAddress(const void* p) {
    return fsShared(p);
}

// 16 bytes from global to shared memory, or 16 zero bytes when !valid (nothing is read then).
__device__ __forceinline__ void copyAsync16(void* smem, const void* gmem, bool valid) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sharedAddress(smem)),
                 "l"(gmem), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void commitAsyncCopies() {
    fsCommit();
}
// Waits until at most kPending of the committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void waitAsyncCopies() {
    fsWait<kPending>();
}

// Four 8x8 matrices of 16-bit elements; lane l gives the address of row l % 8 of matrix l / 8.
__device__ __forceinline__ void loadMatrices(unsigned (&r)[4], const void* smem) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(sharedAddress(smem)));
}

// The same at a shared address plus a compile-time byte offset (kOffset folds into the
// instruction, so a kernel can keep one address register per thread for several tiles).
template <int kOffset>
__device__ __forceinline__ void copyAsync16At(unsigned smemAddress, const void* gmem) {
    asm volatile("cp.async.cg.shared.global [%0+%2], [%1], 16;\n" ::"r"(smemAddress), "l"(gmem),
                 "n"(kOffset));
}
template <int kOffset>
__device__ __forceinline__ void loadMatricesAt(unsigned (&r)[4], unsigned smemAddress) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4+%5];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smemAddress), "n"(kOffset));
}

// c (16x8, float32) += a (16x16, row-major bfloat16) * b (16x8, column-major bfloat16).
__device__ __forceinline__ void mmaBf16(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                        unsigned b1) {
    fsMma(c, a, b0, b1);
}

}  // namespace fusescope::mlp::device

namespace fusescope::mlp::device {

// Two 8x8 matrices of 16-bit elements; lanes 0-15 give the row addresses (lane l: row l % 8 of
// matrix l / 8).
__device__ __forceinline__ void loadMatrices2(unsigned (&r)[2], const void* smem) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(sharedAddress(smem)));
}

}  // namespace fusescope::mlp::device
