#include "expr/ledger.h"

#include <algorithm>

namespace fusescope::expr {

Ledger predictLedger(const Program& program, const VariantPlan& plan, std::uint64_t n) {
    const std::uint64_t arrayBytes = n * sizeof(float);
    Ledger ledger;
    ledger.variant = std::string(strategyName(plan.strategy));

    // The kernels that write and last read each array.
    const int kernels = static_cast<int>(plan.kernels.size());
    std::vector<int> firstWrite(plan.arrays.size(), kernels);
    std::vector<int> lastRead(plan.arrays.size(), -1);
    for (int k = 0; k < kernels; ++k) {
        for (int array : plan.kernels[k].reads) lastRead[array] = std::max(lastRead[array], k);
        for (const PlanWrite& write : plan.kernels[k].writes)
            firstWrite[write.array] = std::min(firstWrite[write.array], k);
    }
    for (const PlanArray& array : plan.arrays) {
        ledger.peakBytesInFlight += arrayBytes;
        if (array.role == ArrayRole::Intermediate) ledger.intermediates.push_back(array.name);
    }

    for (int k = 0; k < kernels; ++k) {
        const PlanKernel& kernel = plan.kernels[k];
        LedgerKernel row;
        row.name = kernel.name;
        for (int array : kernel.reads) row.reads.push_back(plan.arrays[array].name);
        for (const PlanWrite& write : kernel.writes)
            row.writes.push_back(plan.arrays[write.array].name);
        row.operations = static_cast<int>(kernel.operations.size());
        for (int operation : kernel.operations)
            row.flopsPerElement += opInfo(program.operations[operation].kind).flopsPerElement;
        row.bytesRead = row.reads.size() * arrayBytes;
        row.bytesWritten = row.writes.size() * arrayBytes;
        for (std::size_t a = 0; a < plan.arrays.size(); ++a) {
            const bool live = plan.arrays[a].role != ArrayRole::Intermediate ||
                              (firstWrite[a] <= k && std::max(lastRead[a], firstWrite[a]) >= k);
            if (live) row.bytesLive += arrayBytes;
        }
        ledger.passes += row.passes();
        ledger.bytes += row.bytes();
        ledger.flops += row.flopsPerElement * static_cast<double>(n);
        ledger.peakBytesLive = std::max(ledger.peakBytesLive, row.bytesLive);
        ledger.kernels.push_back(std::move(row));
    }
    return ledger;
}

}  // namespace fusescope::expr
