#include "worker/kernel_cache.h"

#include "platform/runtime_compiler.h"

namespace fusescope {

void useKernelCacheFolder(const QString& folder) {
    setModuleCacheDirectory(folder.toStdString());
}

}  // namespace fusescope
