// fusescope-kernel 1
// entry: swiglu_lab
// reference: swiglu
// buffer: input gate
// buffer: input up
// buffer: scratch scratch
// buffer: output out
// pass: read gate
// pass: write scratch
// pass: read scratch
// pass: read up
// pass: write out
// end
// The lab: SwiGLU with two loops and a scratch buffer
// SwiGLU after the gate/up projections: out[i] = SiLU(gate[i]) * up[i], SiLU(g) = g / (1 + e^-g).
// The two loops below are teaching scaffolding: the first writes SiLU(gate) to global scratch,
// the second reads it back. Merge them into one grid-stride loop that keeps SiLU in a local
// variable, then delete the scratch buffer (and its passes) in the Buffers list.
extern "C" __global__ void swiglu_lab(const float* gate, const float* up, float* scratch,
                                      float* out, int N) {
    int start = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;

    // Pass 1: compute SiLU and write the intermediate to global scratch.
    for (int i = start; i < N; i += stride) {
        float g = gate[i];
        scratch[i] = g / (1.0f + expf(-g));
    }

    // Pass 2: read that intermediate back and multiply by the up branch.
    for (int i = start; i < N; i += stride) {
        out[i] = scratch[i] * up[i];
    }
}
