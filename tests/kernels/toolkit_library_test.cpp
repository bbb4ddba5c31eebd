#include "platform/toolkit_library.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>

namespace fusescope {
namespace {

TEST(ToolkitLibrary, TheOverrideIsTheOnlyCandidate) {
    ASSERT_EQ(setenv("FUSESCOPE_TEST_LIBRARY", "/nowhere/libx.so.1", 1), 0);
    const std::vector<std::string> candidates =
        toolkitLibraryCandidates("libx.so.1", "FUSESCOPE_TEST_LIBRARY");
    unsetenv("FUSESCOPE_TEST_LIBRARY");
    ASSERT_EQ(candidates.size(), 1u);
    EXPECT_EQ(candidates[0], "/nowhere/libx.so.1");
}

TEST(ToolkitLibrary, TheLoaderSearchesFirstThenEveryToolkitRoot) {
    unsetenv("FUSESCOPE_TEST_LIBRARY");
    ASSERT_EQ(setenv("CUDA_HOME", "/opt/my-cuda", 1), 0);
    const std::vector<std::string> candidates =
        toolkitLibraryCandidates("libcublas.so.13", "FUSESCOPE_TEST_LIBRARY");
    unsetenv("CUDA_HOME");
    ASSERT_FALSE(candidates.empty());
    EXPECT_EQ(candidates[0], "libcublas.so.13");
    const auto has = [&](const std::string& path) {
        return std::find(candidates.begin(), candidates.end(), path) != candidates.end();
    };
    EXPECT_TRUE(has("/opt/my-cuda/lib64/libcublas.so.13"));
    EXPECT_TRUE(has("/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so.13"));
    EXPECT_TRUE(has("/usr/local/cuda-13.0/lib64/libcublas.so.13"));
}

}  // namespace
}  // namespace fusescope
