#include "platform/toolkit_library.h"

#include <cstdlib>

namespace fusescope {

std::vector<std::string> toolkitLibraryCandidates(const std::string& soname,
                                                  const char* overrideVariable) {
    if (const char* only = std::getenv(overrideVariable)) return {only};
    std::vector<std::string> candidates = {soname};
    std::vector<std::string> roots;
    if (const char* home = std::getenv("CUDA_HOME")) roots.emplace_back(home);
    if (const char* path = std::getenv("CUDA_PATH")) roots.emplace_back(path);
    roots.emplace_back("/usr/local/cuda");
    roots.emplace_back("/usr/local/cuda-13.0");
    for (const std::string& root : roots) {
        candidates.push_back(root + "/lib64/" + soname);
        candidates.push_back(root + "/targets/x86_64-linux/lib/" + soname);
    }
    return candidates;
}

}  // namespace fusescope
