#pragma once
// Where kernels compiled at run time are kept between starts. Set once, before the worker starts.
#include <QString>

namespace fusescope {

void useKernelCacheFolder(const QString& folder);

}  // namespace fusescope
