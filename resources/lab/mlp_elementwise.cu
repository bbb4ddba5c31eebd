// fusescope-kernel 1
// entry: mlp_silu_mul
// reference: swiglu
// buffer: input gate
// buffer: input up
// buffer: output out
// pass: read gate
// pass: read up
// pass: write out
// end
// The MLP's elementwise part: silu(g) * u after the GEMMs
// The elementwise part of the MLP, after the two GEMMs have produced gate and up (each N values):
// out[i] = silu(gate[i]) * up[i]. One grid-stride loop, SiLU kept in a register. Try a vector
// width of 4 (float4 loads) and see whether the time moves.
extern "C" __global__ void mlp_silu_mul(const float* gate, const float* up, float* out, int N) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
        float g = gate[i];
        out[i] = g / (1.0f + expf(-g)) * up[i];
    }
}
