// fusescope-kernel 1
// entry: affine_lab
// reference: affine
// buffer: input x
// buffer: scratch tmp
// buffer: output out
// pass: read x
// pass: write tmp
// pass: read tmp
// pass: write out
// end
// The lesson's affine chain, unfused: out = x * 2 + 3
// The first loop writes x * 2 to the N-sized tmp in device memory, the second reads it back to
// add 3: four whole-array sweeps. Fuse the loops, keep x * 2 in a register, remove tmp.
extern "C" __global__ void affine_lab(const float* x, float* tmp, float* out, int N) {
    int start = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;

    for (int i = start; i < N; i += stride) {
        tmp[i] = x[i] * 2.0f;
    }

    for (int i = start; i < N; i += stride) {
        out[i] = tmp[i] + 3.0f;
    }
}
