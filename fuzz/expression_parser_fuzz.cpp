// Feeds arbitrary text to the expression parser, and what it accepts to everything built from a
// chain: each variant's kernel plan, predicted ledger and generated CUDA, and the reference at
// a few elements.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "expr/cuda_source.h"
#include "expr/ledger.h"
#include "expr/parser.h"
#include "expr/reference.h"
#include "expr/variant_plan.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fusescope::expr;
    const ParseResult parsed = parseProgram({reinterpret_cast<const char*>(data), size});
    if (!parsed) {
        (void)parsed.error().message();
        return 0;
    }
    for (const Strategy strategy : strategiesOf(parsed.program())) {
        const VariantPlan plan = planVariant(parsed.program(), strategy);
        const Ledger ledger = predictLedger(parsed.program(), plan, std::uint64_t{1} << 20);
        (void)ledger;
        for (std::size_t k = 0; k < plan.kernels.size(); ++k)
            (void)generateDescribedCudaKernel(parsed.program(), plan, static_cast<int>(k));
    }
    const Program& program = parsed.program();
    std::vector<float> values(program.inputs.size() * 4, 0.0f);
    for (std::size_t v = 0; v < values.size(); ++v) values[v] = static_cast<float>(v) - 3.5f;
    std::vector<const float*> inputs;
    for (std::size_t i = 0; i < program.inputs.size(); ++i) inputs.push_back(&values[i * 4]);
    std::vector<ReferenceValue> outputs(program.outputs.size());
    for (std::uint64_t i = 0; i < 4; ++i) {
        evaluateReference(program, inputs.data(), i, outputs.data());
        for (const ReferenceValue& output : outputs) (void)roundingsAway(output, 1.0f);
    }
    return 0;
}
