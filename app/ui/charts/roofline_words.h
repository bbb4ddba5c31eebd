#pragma once
// What "% of the copy roofline" means, in the words every view uses for it: the roofline is a
// measured plain copy, not the hardware's limit, so a kernel can beat it.
#include <QCoreApplication>
#include <QString>

namespace fusescope {

inline QString rooflineMeaning() {
    return QCoreApplication::translate(
        "fusescope",
        "The copy roofline is the speed of a plain copy of as many bytes on this device "
        "(cudaMemcpy on a GPU, memcpy on the CPU), measured before the run.");
}

// Shown where a share above 100% appears.
inline QString aboveRooflineMeaning() {
    return QCoreApplication::translate(
        "fusescope",
        "Above 100%: the copy routine is not the hardware's limit. A kernel that streams its "
        "arrays with wide, well-ordered loads and stores can move bytes faster than it.");
}

// The tooltip of a share of the roofline (`share` 1.0 = 100%), which is made of DRAM bytes.
inline QString rooflineShareTooltip(double share) {
    if (share <= 1.0) return rooflineMeaning();
    return aboveRooflineMeaning() + QLatin1Char('\n') + rooflineMeaning();
}

}  // namespace fusescope
