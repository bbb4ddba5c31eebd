// The expression parser's hostile corpus (fuzz/hostile/expression_parser/): each "refused-*"
// text is refused quickly with a one-line message, each "parses-*" text parses.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "expr/parser.h"

namespace fusescope::expr {
namespace {

TEST(ExpressionHostileText, EachFileIsRefusedOrParsesAsItsNameSays) {
    const std::filesystem::path folder =
        std::filesystem::path(FUSESCOPE_HOSTILE_CORPUS_DIR) / "expression_parser";
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        std::ifstream file(entry.path(), std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(file), {}};
        const auto start = std::chrono::steady_clock::now();
        const ParseResult parsed = parseProgram(text);
        const auto elapsed = std::chrono::steady_clock::now() - start;
        const std::string name = entry.path().filename().string();
        const bool refuse = name.starts_with("refused-");
        EXPECT_TRUE(refuse || name.starts_with("parses-")) << name;
        EXPECT_EQ(!parsed.isOk(), refuse) << name << ": " << parsed.status().message();
        EXPECT_EQ(parsed.status().message().find('\n'), std::string::npos) << name;
        EXPECT_LT(parsed.status().message().size(), 600u) << name;
        EXPECT_LT(elapsed, std::chrono::milliseconds(100)) << name;
        ++files;
    }
    EXPECT_GE(files, 8);
}

}  // namespace
}  // namespace fusescope::expr
