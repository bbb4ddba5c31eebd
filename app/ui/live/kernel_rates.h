#pragma once
// What decides the bandwidth chart's automatic log scale: the rates of its kernels, not of its
// samples. Between kernels the counters read near zero, so the least sample against the most is
// always a vast spread; a kernel's median rate is its plateau, and brief spikes at its edges or
// the idle time around it do not move it.
#include <QVector>

#include "live/live_types.h"

namespace fusescope::live {

struct KernelRateSpread {
    double smallest = 0.0;  // bytes per second, read + written; 0 where no kernel was sampled
    double largest = 0.0;
};

// Each kernel's median of read + written bytes per second over the samples whose middle lies
// inside it (a kernel with fewer than kLeastSamplesPerKernel of them is left out); the least and
// the most of those medians. `samples` are in start order.
constexpr int kLeastSamplesPerKernel = 3;
KernelRateSpread kernelRateSpread(const QVector<LiveSample>& samples,
                                  const QVector<LiveKernelSpan>& kernels);

}  // namespace fusescope::live
