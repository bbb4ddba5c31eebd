// Feeds arbitrary text to the expression parser, and what it accepts to everything built from a
// chain: each variant's kernel plan and predicted ledger.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "expr/ledger.h"
#include "expr/parser.h"
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
    }
    return 0;
}
