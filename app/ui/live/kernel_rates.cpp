#include "live/kernel_rates.h"

#include <algorithm>

namespace fusescope::live {

KernelRateSpread kernelRateSpread(const QVector<LiveSample>& samples,
                                  const QVector<LiveKernelSpan>& kernels) {
    KernelRateSpread spread;
    bool any = false;
    QVector<double> rates;
    for (const LiveKernelSpan& kernel : kernels) {
        rates.clear();
        // Samples start in order; one whose middle is inside started at most its length before.
        auto it =
            std::lower_bound(samples.cbegin(), samples.cend(), kernel.startNs,
                             [](const LiveSample& sample, qint64 ns) { return sample.endNs < ns; });
        while (it != samples.cbegin() && std::prev(it)->endNs >= kernel.startNs) --it;
        for (; it != samples.cend() && it->startNs <= kernel.endNs; ++it) {
            const qint64 middle = it->startNs + (it->endNs - it->startNs) / 2;
            if (middle < kernel.startNs || middle > kernel.endNs) continue;
            rates.append(it->readBytesPerSecond + it->writeBytesPerSecond);
        }
        // Fewer samples say little of a plateau: a kernel the sampler all but missed reads as
        // the idle time around it.
        if (rates.size() < kLeastSamplesPerKernel) continue;
        const auto middle = rates.begin() + rates.size() / 2;
        std::nth_element(rates.begin(), middle, rates.end());
        const double median = *middle;
        if (!(median > 0)) continue;
        spread.smallest = any ? std::min(spread.smallest, median) : median;
        spread.largest = any ? std::max(spread.largest, median) : median;
        any = true;
    }
    return spread;
}

}  // namespace fusescope::live
