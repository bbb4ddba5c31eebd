// What the run-time compiled MLP kernels (mlp_lesson_tiled.cu, mlp_production_tiled.cu) share:
// bfloat16 as unsigned short with its PTX conversions, SiLU, and the PTX wrappers of cp.async,
// ldmatrix and mma.m16n8k16. CMake puts this text in front of each of those sources when it
// embeds them for NVRTC; a kernel compiled ahead of time from one of them includes it first
// (mlp_production_precompiled.cu). No #pragma once and no includes on purpose: NVRTC 13 has no
// built-in cuda_bf16.h, and the text is pasted, not included, at run time.

typedef unsigned short fs_bf16;

__device__ __forceinline__ float fsSilu(float g) {
    return g / (1.0f + expf(-g));
}
// SiLU as the lesson's Triton kernel computes it: tl.sigmoid compiles to ex2.approx and
// div.full.f32, both approximate and without the IEEE division's slow path. fsSilu's expf and
// division cost the lesson kernel about 25 instructions an element, a branch and a call each,
// between a chunk's last gate and up products and its down product: on an H100 this form took
// 10-16% off the kernel's time at five classroom and decode-1 tiles. The precompiled lesson
// kernels (mlp_lesson_fused.cu, mlp_lesson_bf16.cuh) use it too, so one tile runs one SiLU.
__device__ __forceinline__ float fsLessonSilu(float g) {
    float e, s;
    asm("ex2.approx.f32 %0, %1;" : "=f"(e) : "f"(g * -1.4426950408889634f));
    asm("div.full.f32 %0, %1, %2;" : "=f"(s) : "f"(g), "f"(1.0f + e));
    return s;
}
__device__ __forceinline__ float fsToFloat(fs_bf16 v) {
    return __uint_as_float(static_cast<unsigned>(v) << 16);
}
__device__ __forceinline__ fs_bf16 fsFromFloat(float v) {
    fs_bf16 r;
    asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
    return r;
}
// lo goes to the lower address.
__device__ __forceinline__ unsigned fsPack(float lo, float hi) {
    unsigned r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}
__device__ __forceinline__ unsigned fsShared(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void fsCopy16(unsigned dst, const void* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(bytes));
}
__device__ __forceinline__ void fsCommit() {
    asm volatile("cp.async.commit_group;\n" ::);
}
template <int kPending>
__device__ __forceinline__ void fsWait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}
__device__ __forceinline__ void fsLoadMatrices(unsigned (&r)[4], unsigned address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
}
// Two 8 x 8 matrices: lanes 0-15 give the row addresses.
__device__ __forceinline__ void fsLoadMatrixPair(unsigned (&r)[2], unsigned address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(address));
}
__device__ __forceinline__ void fsMma(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                      unsigned b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
