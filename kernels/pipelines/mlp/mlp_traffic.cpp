#include "pipelines/mlp/mlp_traffic.h"

#include "pipelines/mlp/mlp_production_tiles.h"

namespace fusescope::mlp {
namespace {

// FLOPs counted per element of the elementwise stages: silu(g) = g / (1 + exp(-g)) as 4
// (negate+exp, add, divide) and the product with u as 1.
constexpr double kSiluFlops = 4;
constexpr double kMulFlops = 1;

struct Sizes {
    std::uint64_t x, weight, mi, out;  // bytes of x, of one weight matrix, of an M x I, of out
    double gemm;                       // FLOPs of one of the three products
    double mi_elements;
};

Sizes sizesOf(const MlpShape& s, MlpDtype dtype) {
    const auto e = static_cast<std::uint64_t>(elementBytes(dtype));
    const auto M = static_cast<std::uint64_t>(s.M), H = static_cast<std::uint64_t>(s.H),
               I = static_cast<std::uint64_t>(s.I);
    return {M * H * e,
            I * H * e,
            M * I * e,
            M * H * e,
            2.0 * double(M) * double(H) * double(I),
            double(M) * double(I)};
}

BufferTraffic reads(MlpBuffer b, std::uint64_t bytes) {
    return {b, bytes, 0};
}
BufferTraffic writes(MlpBuffer b, std::uint64_t bytes) {
    return {b, 0, bytes};
}

// A GEMM as a library runs it, modelled at its compulsory traffic: operands read once, result
// written once.
KernelTraffic downGemm(const Sizes& z) {
    return {"gemm_down",
            {reads(MlpBuffer::H, z.mi), reads(MlpBuffer::Down, z.weight),
             writes(MlpBuffer::Out, z.out)},
            z.gemm};
}

std::vector<KernelTraffic> unfused(const Sizes& z) {
    return {
        {"gemm_gate",
         {reads(MlpBuffer::X, z.x), reads(MlpBuffer::Gate, z.weight), writes(MlpBuffer::G, z.mi)},
         z.gemm},
        {"gemm_up",
         {reads(MlpBuffer::X, z.x), reads(MlpBuffer::Up, z.weight), writes(MlpBuffer::U, z.mi)},
         z.gemm},
        // SiLU in place on g, as an activation kernel writing its own output buffer would.
        {"silu", {{MlpBuffer::G, z.mi, z.mi}}, kSiluFlops * z.mi_elements},
        {"multiply",
         {reads(MlpBuffer::G, z.mi), reads(MlpBuffer::U, z.mi), writes(MlpBuffer::H, z.mi)},
         kMulFlops * z.mi_elements},
        downGemm(z)};
}

// Grid: ceil(M/BLOCK_M) x ceil(H/BLOCK_N) blocks. Each block, for each of ceil(I/BLOCK_I)
// chunks, reads its rows of x in full (a fresh window per chunk) and the whole chunk of gate and
// up, so gate and up are read once per output-column tile per M tile, and x once per
// output-column tile per I chunk. Padding beyond the edges is not read.
std::vector<KernelTraffic> lessonFused(const MlpShape& s, const Sizes& z, const LessonTiles& t) {
    const auto tilesM = static_cast<std::uint64_t>(ceilDiv(s.M, t.blockM));
    const auto tilesN = static_cast<std::uint64_t>(ceilDiv(s.H, t.blockN));
    const auto chunksI = static_cast<std::uint64_t>(ceilDiv(s.I, t.blockI));
    const double flops = 2.0 * z.gemm * double(tilesN) + z.gemm +
                         (kSiluFlops + kMulFlops) * z.mi_elements * double(tilesN);
    return {{"swiglu_mlp_lesson",
             {reads(MlpBuffer::X, z.x * tilesN * chunksI),
              reads(MlpBuffer::Gate, z.weight * tilesM * tilesN),
              reads(MlpBuffer::Up, z.weight * tilesM * tilesN),
              reads(MlpBuffer::Down, z.weight * tilesM), writes(MlpBuffer::Out, z.out)},
             flops}};
}

// Prefill: a grid of ceil(M/TILE_M) x ceil(I/TILE_I) blocks, each reading its rows of x over all
// of H and its TILE_I rows of gate and up: x is read once per I tile, gate and up once per M
// tile. Padding beyond the edges is not read.
std::vector<KernelTraffic> productionKernels(const MlpShape& s, MlpDtype dtype, const Sizes& z,
                                             const production::Tiles& t) {
    const double epilogue = (kSiluFlops + kMulFlops) * z.mi_elements;
    if (s.M <= kDecodeMaxRows) {
        const auto gateUpBlocks = static_cast<std::uint64_t>(
            ceilDiv(s.I, production::decodeRowsPerBlock(dtype, s.M, s.H)));
        const auto downBlocks = static_cast<std::uint64_t>(
            ceilDiv(s.H, production::decodeRowsPerBlock(dtype, s.M, s.I)));
        return {{"gemv_gate_up_silu",
                 {reads(MlpBuffer::X, z.x * gateUpBlocks), reads(MlpBuffer::Gate, z.weight),
                  reads(MlpBuffer::Up, z.weight), writes(MlpBuffer::H, z.mi)},
                 2.0 * z.gemm + epilogue},
                {"gemv_down",
                 {reads(MlpBuffer::H, z.mi * downBlocks), reads(MlpBuffer::Down, z.weight),
                  writes(MlpBuffer::Out, z.out)},
                 z.gemm}};
    }
    const auto tilesM = static_cast<std::uint64_t>(ceilDiv(s.M, t.tileM));
    const auto tilesI = static_cast<std::uint64_t>(ceilDiv(s.I, t.tileI));
    return {{"gemm_gate_up_silu",
             {reads(MlpBuffer::X, z.x * tilesI), reads(MlpBuffer::Gate, z.weight * tilesM),
              reads(MlpBuffer::Up, z.weight * tilesM), writes(MlpBuffer::H, z.mi)},
             2.0 * z.gemm + epilogue},
            downGemm(z)};
}

std::vector<KernelTraffic> mergedGateUp(const Sizes& z) {
    return {
        {"gemm_gate_up",
         {reads(MlpBuffer::X, z.x), reads(MlpBuffer::Gate, z.weight),
          reads(MlpBuffer::Up, z.weight), writes(MlpBuffer::G, z.mi), writes(MlpBuffer::U, z.mi)},
         2.0 * z.gemm},
        {"silu_mul",
         {reads(MlpBuffer::G, z.mi), reads(MlpBuffer::U, z.mi), writes(MlpBuffer::H, z.mi)},
         (kSiluFlops + kMulFlops) * z.mi_elements},
        downGemm(z)};
}

}  // namespace

std::string_view bufferName(MlpBuffer buffer) {
    constexpr std::string_view names[] = {"x", "gate", "up", "down", "g", "u", "h", "out"};
    return names[static_cast<int>(buffer)];
}

std::uint64_t KernelTraffic::bytesRead() const {
    std::uint64_t sum = 0;
    for (const BufferTraffic& b : buffers) sum += b.bytesRead;
    return sum;
}

std::uint64_t KernelTraffic::bytesWritten() const {
    std::uint64_t sum = 0;
    for (const BufferTraffic& b : buffers) sum += b.bytesWritten;
    return sum;
}

BufferTraffic KernelTraffic::of(MlpBuffer buffer) const {
    for (const BufferTraffic& b : buffers)
        if (b.buffer == buffer) return b;
    return {buffer, 0, 0};
}

std::vector<KernelTraffic> mlpTraffic(MlpVariant variant, const MlpShape& shape, MlpDtype dtype,
                                      const LessonTiles& tiles,
                                      const production::Tiles& productionTiles) {
    const Sizes z = sizesOf(shape, dtype);
    switch (variant) {
        case MlpVariant::Unfused:
            return unfused(z);
        case MlpVariant::LessonFused:
            return lessonFused(shape, z, tiles);
        case MlpVariant::Production:
            return productionKernels(shape, dtype, z, productionTiles);
        case MlpVariant::MergedGateUp:
            return mergedGateUp(z);
    }
    return {};
}

std::uint64_t totalBytes(const std::vector<KernelTraffic>& kernels) {
    std::uint64_t sum = 0;
    for (const KernelTraffic& k : kernels) sum += k.bytesRead() + k.bytesWritten();
    return sum;
}

double totalFlops(const std::vector<KernelTraffic>& kernels) {
    double sum = 0;
    for (const KernelTraffic& k : kernels) sum += k.flops;
    return sum;
}

}  // namespace fusescope::mlp
