#include "pipelines/mlp/mlp_host_data.h"

#include <atomic>
#include <cmath>

#include "platform/parallel.h"

namespace fusescope::mlp {
namespace {

// A counter-based generator, so that any element can be drawn by any thread.
std::uint64_t splitMix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

}  // namespace

HostMatrix::HostMatrix(DType dtype, std::int64_t rows, std::int64_t cols)
    : dtype_(dtype),
      rows_(rows),
      cols_(cols),
      storage_(static_cast<std::size_t>(rows * cols) * dtypeBytes(dtype)) {}

float HostMatrix::at(std::size_t index) const {
    if (!storesBfloat16(dtype_)) {
        float value;
        std::memcpy(&value, storage_.data() + index * 4, 4);
        return value;
    }
    std::uint16_t value;
    std::memcpy(&value, storage_.data() + index * 2, 2);
    return fromBfloat16(value);
}

std::vector<float> HostMatrix::toFloats(int threads, const CancelToken& cancel) const {
    std::vector<float> values(elements());
    parallelFor(values.size(), threads, cancel, 1, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) values[i] = at(i);
    });
    return values;
}

void HostMatrix::assign(const std::vector<float>& values, int threads) {
    parallelFor(elements(), threads, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) {
            if (!storesBfloat16(dtype_)) {
                std::memcpy(storage_.data() + i * 4, &values[i], 4);
            } else {
                const std::uint16_t b = toBfloat16(values[i]);
                std::memcpy(storage_.data() + i * 2, &b, 2);
            }
        }
    });
}

void HostMatrix::fillRandom(std::uint64_t seed, float scale, int threads,
                            const CancelToken& cancel) {
    std::vector<float> values(elements());
    const std::uint64_t stream = splitMix(seed);
    if (!parallelFor(values.size(), threads, cancel, 1,
                     [&](std::uint64_t begin, std::uint64_t end) {
                         for (std::uint64_t i = begin; i < end; ++i) {
                             const double unit =
                                 static_cast<double>(splitMix(stream ^ (i * 0x9e37ull + i)) >> 11) *
                                 0x1.0p-53;  // [0, 1)
                             values[i] = static_cast<float>((2.0 * unit - 1.0) * scale);
                         }
                     }))
        return;
    assign(values, threads);
}

void HostMatrix::poison() {
    if (!storesBfloat16(dtype_)) {
        const std::uint32_t nan = 0x7fc00001u;
        for (std::size_t i = 0; i < elements(); ++i) std::memcpy(storage_.data() + i * 4, &nan, 4);
    } else {
        const std::uint16_t nan = 0x7fc1u;
        for (std::size_t i = 0; i < elements(); ++i) std::memcpy(storage_.data() + i * 2, &nan, 2);
    }
}

std::size_t HostMatrix::countNaN(int threads) const {
    std::atomic<std::size_t> count{0};
    parallelFor(elements(), threads, [&](std::uint64_t begin, std::uint64_t end) {
        std::size_t local = 0;
        for (std::uint64_t i = begin; i < end; ++i) local += std::isnan(at(i)) ? 1 : 0;
        count += local;
    });
    return count.load();
}

MlpHostInputs makeRandomInputs(const MlpShape& shape, DType dtype, std::uint64_t seed, int threads,
                               const CancelToken& cancel) {
    MlpHostInputs inputs{HostMatrix(dtype, shape.M, shape.H),
                         HostMatrix(dtype, 2 * shape.I, shape.H),
                         HostMatrix(dtype, shape.H, shape.I)};
    // Weights scaled by 1/sqrt(fan-in), as initialized models are: products stay near one.
    inputs.x.fillRandom(seed * 3 + 1, 1.0f, threads, cancel);
    inputs.gateUp.fillRandom(seed * 3 + 2, 2.0f / std::sqrt(static_cast<float>(shape.H)), threads,
                             cancel);
    inputs.down.fillRandom(seed * 3 + 3, 2.0f / std::sqrt(static_cast<float>(shape.I)), threads,
                           cancel);
    return inputs;
}

}  // namespace fusescope::mlp
