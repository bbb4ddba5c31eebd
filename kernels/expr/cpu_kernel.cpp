#include "expr/cpu_kernel.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "expr/cpu_op_table.h"
#include "platform/parallel.h"

namespace fusescope::expr {

const CpuOpTable& baselineCpuOpTable();
const CpuOpTable& avx2FmaCpuOpTable();

const CpuOpTable& cpuOpTable(CpuInstructionSet set) {
    return set == CpuInstructionSet::Avx2Fma ? avx2FmaCpuOpTable() : baselineCpuOpTable();
}

namespace {

// Where a loop reads or writes: an array of the kernel (at the chunk's offset), a chunk buffer
// of the block, or a chunk buffer filled with a constant.
struct Place {
    enum class Kind { Array, Buffer, Constant };
    Kind kind = Kind::Buffer;
    int index = 0;
};

struct Step {
    CpuOpLoop loop = nullptr;
    Place a;
    Place b;
    Place result;
    std::vector<int> copies;  // further arrays that hold the same value
};

}  // namespace

struct CpuKernelCode::Steps {
    std::vector<Step> steps;
    std::vector<float> constants;
    int buffers = 0;
};

CpuKernelCode::CpuKernelCode(const Program& program, const VariantPlan& plan, int kernelIndex,
                             int vectorWidth, CpuInstructionSet instructionSet)
    : steps_(std::make_unique<Steps>()) {
    const CpuOpTable& table = cpuOpTable(instructionSet);
    const PlanKernel& kernel = plan.kernels[kernelIndex];
    const auto argOf = [&](int array) {
        for (std::size_t r = 0; r < kernel.reads.size(); ++r)
            if (kernel.reads[r] == array) return static_cast<int>(r);
        for (std::size_t w = 0; w < kernel.writes.size(); ++w)
            if (kernel.writes[w].array == array) return static_cast<int>(kernel.reads.size() + w);
        return -1;
    };
    Steps& compiled = *steps_;
    std::vector<Place> valuePlace(program.operations.size());
    const auto constant = [&](float value) {
        compiled.constants.push_back(value);
        return Place{Place::Kind::Constant, static_cast<int>(compiled.constants.size() - 1)};
    };
    const auto placeOf = [&](const Operand& operand) -> Place {
        switch (operand.kind) {
            case Operand::Kind::Input:
                return {Place::Kind::Array, argOf(plan.arrayOfInput(operand.index))};
            case Operand::Kind::Parameter:
                return constant(program.parameters[operand.index].value);
            case Operand::Kind::Constant:
                return constant(operand.constant);
            case Operand::Kind::Value:
                if (plan.kernelOf(operand.index) == kernelIndex) return valuePlace[operand.index];
                return {Place::Kind::Array, argOf(plan.homeOf(operand.index))};
        }
        return {};
    };
    for (int operation : kernel.operations) {
        const Operation& op = program.operations[operation];
        Step step;
        const auto kind = static_cast<std::size_t>(op.kind);
        step.loop = vectorWidth == 1 ? table.scalar[kind] : table.simd[kind];
        step.a = placeOf(op.operands[0]);
        step.b = op.operands.size() > 1 ? placeOf(op.operands[1]) : step.a;
        for (const PlanWrite& write : kernel.writes) {
            if (write.operation != operation) continue;
            if (step.result.kind == Place::Kind::Array)
                step.copies.push_back(argOf(write.array));
            else
                step.result = {Place::Kind::Array, argOf(write.array)};
        }
        if (step.result.kind != Place::Kind::Array) step.result.index = compiled.buffers++;
        valuePlace[operation] = step.result;
        compiled.steps.push_back(std::move(step));
    }
}

CpuKernelCode::~CpuKernelCode() = default;
CpuKernelCode::CpuKernelCode(CpuKernelCode&&) noexcept = default;
CpuKernelCode& CpuKernelCode::operator=(CpuKernelCode&&) noexcept = default;

std::uint64_t CpuKernelCode::operations() const {
    return std::max<std::uint64_t>(1, steps_->steps.size());
}

void CpuKernelCode::run(void* const* arrays, std::uint64_t begin, std::uint64_t end) const {
    const Steps& compiled = *steps_;
    std::vector<float> buffers(compiled.buffers * kCpuChunkElements);
    std::vector<float> constants(compiled.constants.size() * kCpuChunkElements);
    for (std::size_t c = 0; c < compiled.constants.size(); ++c)
        std::fill_n(constants.begin() + c * kCpuChunkElements, kCpuChunkElements,
                    compiled.constants[c]);
    for (std::uint64_t chunk = begin; chunk < end; chunk += kCpuChunkElements) {
        const std::size_t count = std::min(kCpuChunkElements, end - chunk);
        const auto at = [&](const Place& place) -> float* {
            switch (place.kind) {
                case Place::Kind::Array:
                    return static_cast<float*>(arrays[place.index]) + chunk;
                case Place::Kind::Buffer:
                    return buffers.data() + place.index * kCpuChunkElements;
                case Place::Kind::Constant:
                    return constants.data() + place.index * kCpuChunkElements;
            }
            return nullptr;
        };
        for (const Step& step : compiled.steps) {
            float* result = at(step.result);
            step.loop(at(step.a), at(step.b), result, count);
            for (int copy : step.copies)
                std::memcpy(static_cast<float*>(arrays[copy]) + chunk, result,
                            count * sizeof(float));
        }
    }
}

Status runCpuKernel(const Program& program, const VariantPlan& plan, int kernelIndex,
                    void* const* arrays, const CpuKernelRun& run) {
    const CpuKernelCode code(program, plan, kernelIndex, run.vectorWidth, run.instructionSet);
    const bool finished = parallelFor(
        run.n, run.threads, run.cancel, code.operations(),
        [&](std::uint64_t begin, std::uint64_t end) { code.run(arrays, begin, end); },
        kCpuChunkElements);
    return finished ? Status::ok() : cancelledStatus();
}

}  // namespace fusescope::expr
