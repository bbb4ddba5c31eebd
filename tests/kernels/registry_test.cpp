#include <gtest/gtest.h>

#include <set>

#include "pipelines/cpu_kernels.h"
#include "pipelines/registry.h"

using namespace fusescope;

TEST(Registry, HasTheLessonPipelinesAndVariants) {
    const PipelineSpec* affine = findPipeline("affine");
    ASSERT_NE(affine, nullptr);
    EXPECT_NE(findVariant(*affine, "unfused"), nullptr);
    EXPECT_NE(findVariant(*affine, "fused"), nullptr);
    const PipelineSpec* swiglu = findPipeline("swiglu");
    ASSERT_NE(swiglu, nullptr);
    EXPECT_NE(findVariant(*swiglu, "scratch"), nullptr);
    EXPECT_NE(findVariant(*swiglu, "two_launch"), nullptr);
    EXPECT_NE(findVariant(*swiglu, "fused"), nullptr);
    EXPECT_EQ(findPipeline("nope"), nullptr);
}

TEST(Registry, EveryKernelArgumentIsADeclaredBufferAndHasACpuKernel) {
    for (const auto& pipeline : pipelines()) {
        ASSERT_NE(pipeline.reference, nullptr) << pipeline.name;
        for (const auto& variant : pipeline.variants) {
            std::set<std::string> names;
            int outputs = 0;
            for (const auto& buffer : variant.buffers) {
                EXPECT_TRUE(names.insert(buffer.name).second) << "duplicate " << buffer.name;
                outputs += buffer.role == BufferRole::Output;
                if (buffer.role == BufferRole::Input) {
                    EXPECT_LT(buffer.low, buffer.high);
                }
            }
            EXPECT_EQ(outputs, 1) << variant.name;
            for (const auto& kernel : variant.kernels) {
                for (int width : {1, 4})
                    EXPECT_NE(cpuKernel(kernel.id, width), nullptr) << kernel.name;
                for (const auto& list : {kernel.args, kernel.reads, kernel.writes})
                    for (const auto& name : list)
                        EXPECT_TRUE(names.count(name))
                            << pipeline.name << "/" << variant.name << " kernel " << kernel.name
                            << " uses " << name;
            }
        }
    }
}

TEST(PassModel, MatchesTheLesson) {
    const PipelineSpec& swiglu = *findPipeline("swiglu");
    const std::uint64_t n = 1000;
    const std::uint64_t array = n * sizeof(float);
    EXPECT_EQ(modelVariantTraffic(*findVariant(swiglu, "scratch"), n).passes, 5);
    EXPECT_EQ(modelVariantTraffic(*findVariant(swiglu, "two_launch"), n).passes, 5);
    const Traffic fused = modelVariantTraffic(*findVariant(swiglu, "fused"), n);
    EXPECT_EQ(fused.passes, 3);
    EXPECT_EQ(fused.bytesRead, 2 * array);
    EXPECT_EQ(fused.bytesWritten, 1 * array);
    EXPECT_EQ(modelFootprintBytes(*findVariant(swiglu, "scratch"), n) -
                  modelFootprintBytes(*findVariant(swiglu, "fused"), n),
              array);

    const PipelineSpec& affine = *findPipeline("affine");
    EXPECT_EQ(modelVariantTraffic(*findVariant(affine, "unfused"), n).passes, 4);
    EXPECT_EQ(modelVariantTraffic(*findVariant(affine, "fused"), n).passes, 2);
    const auto& twoLaunch = *findVariant(swiglu, "two_launch");
    ASSERT_EQ(twoLaunch.kernels.size(), 2u);
    EXPECT_EQ(modelKernelTraffic(twoLaunch.kernels[1], n).bytesRead, 2 * array);
}

TEST(Registry, VectorWidths) {
    EXPECT_TRUE(isSupportedVectorWidth(1));
    EXPECT_TRUE(isSupportedVectorWidth(4));
    EXPECT_FALSE(isSupportedVectorWidth(2));
    EXPECT_FALSE(isSupportedVectorWidth(0));
}
