#pragma once
// A run-time compiled kernel's text, embedded one string literal a file (kernels/CMakeLists.txt:
// compilers need take literals only up to 65,536 characters) and joined here once.
#include <cstddef>
#include <string>
#include <string_view>

namespace fusescope::mlp {

template <std::size_t N>
std::string joinedSource(const std::string_view (&parts)[N]) {
    std::string text;
    for (std::string_view part : parts) text += part;
    return text;
}

}  // namespace fusescope::mlp
