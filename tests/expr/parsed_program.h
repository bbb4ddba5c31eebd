#pragma once
// A chain the test expects to parse: its program, or an empty one after a failure that names
// the parse error.
#include <gtest/gtest.h>

#include <string>

#include "expr/parser.h"

namespace fusescope::expr {

inline Program parsed(const std::string& text) {
    const ParseResult result = parseProgram(text);
    EXPECT_TRUE(result) << text << ": " << (result ? "" : result.error().message());
    return result ? result.program() : Program{};
}

}  // namespace fusescope::expr
