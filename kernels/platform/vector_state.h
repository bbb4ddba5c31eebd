#pragma once
// Threads inherit their creator's vector register state. Qt 6.4's AES-based qHash (on CPUs
// with VAES) returns with the upper halves of the YMM registers dirty, so the main thread and
// every thread it starts carry that state; legacy SSE code then pays a transition penalty on
// every instruction that mixes with AVX (30x slower SwiGLU, measured). The CPU backend clears
// the state where its threads start and before it runs kernels on the calling thread.
namespace fusescope {

void clearUpperVectorState();  // vzeroupper where the CPU has AVX; nothing elsewhere

// For tests: whether this thread's upper YMM state is in use (XGETBV with ECX = 1), or false
// where the CPU cannot tell.
bool upperVectorStateInUse();

}  // namespace fusescope
