#include "runtime/learner_launch.h"

namespace fusescope {

Result<CompiledModule> compileLearnerKernel(const std::string& fileName, const std::string& source,
                                            std::string& log) {
    Result<ModuleCompiler*> compiler = runtimeCompiler();
    if (!compiler) return compiler.status();
    CompileRequest request;
    request.name = fileName;
    request.source = source;
    request.options = {"--std=c++17"};
    request.architecture = learnerArchitecture();
    // Not through the module cache: a learner compiles to see the messages, every time.
    Result<std::vector<unsigned char>> image = (*compiler)->compile(request, log);
    if (!image) return image.status();
    CompiledModule module;
    module.image = std::move(*image);
    module.log = log;
    module.origin = "nvrtc";
    return module;
}

}  // namespace fusescope
