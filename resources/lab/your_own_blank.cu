// fusescope-kernel 1
// entry: blank_kernel
// expression: out = x * 2 + 3
// buffer: input x
// buffer: output out
// pass: read x
// pass: write out
// end
// A blank kernel: compute what an expression says
// What this kernel must compute is the expression in the Expression
// field: type your own there. Its inputs, then its last output, are the
// kernel's parameters (float*, N each), then int N. Its CPU evaluation
// checks your output, and the unfused and fused kernels FuseScope
// generates from it run beside yours. Fill in the loop below.
extern "C" __global__ void blank_kernel(const float* x, float* out, int N) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    }
}
