// Runs without a GPU: the kernel table covers the registry, with the registry's argument counts.
#include <gtest/gtest.h>

#include <set>

#include "pipelines/cuda_kernels.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"

using namespace fusescope;

TEST(CudaKernelTable, EveryKernelIdHasBothWidths) {
    for (int id = 0; id < kKernelIdCount; ++id) {
        const CudaKernel scalar = cudaKernel(static_cast<KernelId>(id), 1);
        const CudaKernel vector = cudaKernel(static_cast<KernelId>(id), 4);
        ASSERT_NE(scalar.function, nullptr) << "kernel id " << id;
        ASSERT_NE(vector.function, nullptr) << "kernel id " << id;
        EXPECT_NE(scalar.function, vector.function) << scalar.name;
        EXPECT_EQ(scalar.pointerArgs, vector.pointerArgs) << scalar.name;
        EXPECT_LE(scalar.pointerArgs, kMaxKernelArgs) << scalar.name;
    }
}

TEST(CudaKernelTable, OtherWidthsAndIdsHaveNoKernel) {
    EXPECT_EQ(cudaKernel(KernelId::SwigluFused, 2).function, nullptr);
    EXPECT_EQ(cudaKernel(KernelId::AffineFused, 8).function, nullptr);
    EXPECT_EQ(cudaKernel(KernelId::Count, 1).function, nullptr);
}

TEST(CudaKernelTable, ParametersMatchTheRegistryArguments) {
    for (const PipelineSpec& pipeline : pipelines())
        for (const VariantSpec& variant : pipeline.variants)
            for (const KernelSpec& kernel : variant.kernels)
                for (int width : {1, 4}) {
                    const CudaKernel entry = cudaKernel(kernel.id, width);
                    EXPECT_EQ(entry.pointerArgs, static_cast<int>(kernel.args.size()))
                        << pipeline.name << "/" << variant.name << "/" << kernel.name;
                }
}

TEST(CudaKernelTable, EveryEntryIsADistinctFunction) {
    std::set<const void*> functions;
    for (int id = 0; id < kKernelIdCount; ++id)
        for (int width : {1, 4})
            functions.insert(cudaKernel(static_cast<KernelId>(id), width).function);
    EXPECT_EQ(functions.size(), static_cast<std::size_t>(2 * kKernelIdCount));
}
