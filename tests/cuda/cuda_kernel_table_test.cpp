// Runs without a GPU: the CUDA backend's catalog has code for every kernel the registry plans,
// and the elementwise kernels' tables match the registry's arguments.
#include <gtest/gtest.h>

#include <set>

#include "pipelines/cuda_kernels.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/registry.h"
#include "support/pipeline_problems.h"

using namespace fusescope;

TEST(CudaExecutions, EveryPlannedKernelHasCudaCode) {
    const ExecutionCatalog catalog = makeCudaExecutions();
    for (const PipelineSpec& pipeline : pipelines()) {
        for (const Problem& problem : testing_support::defaultAndPresetProblems(pipeline))
            for (const VariantSpec& variant : pipeline.variants)
                for (const KernelSpec& kernel : variant.kernelsFor(problem))
                    EXPECT_TRUE(catalog.count(kernel.execution))
                        << pipeline.name << "/" << variant.name << "/" << kernel.name;
    }
}

TEST(CudaExecutions, ElementwiseEntriesHaveBothWidthsAndTheRegistryArguments) {
    std::set<const void*> functions;
    std::map<std::string, int> pointerArgs;
    for (const auto& entries : {affineCudaKernels(), swigluCudaKernels()})
        for (const CudaElementwiseEntry& entry : entries) {
            ASSERT_NE(entry.scalar.function, nullptr) << entry.execution;
            ASSERT_NE(entry.vector.function, nullptr) << entry.execution;
            EXPECT_EQ(entry.scalar.pointerArgs, entry.vector.pointerArgs) << entry.execution;
            functions.insert(entry.scalar.function);
            functions.insert(entry.vector.function);
            pointerArgs[entry.execution] = entry.scalar.pointerArgs;
        }
    EXPECT_EQ(functions.size(), 2 * pointerArgs.size());  // every entry a distinct function
    for (const PipelineSpec& pipeline : pipelines()) {
        if (!pipeline.countsPasses) continue;
        for (const VariantSpec& variant : pipeline.variants)
            for (const KernelSpec& kernel : variant.kernelsFor(pipeline.defaultProblem())) {
                ASSERT_TRUE(pointerArgs.count(kernel.execution)) << kernel.execution;
                EXPECT_EQ(pointerArgs.at(kernel.execution), static_cast<int>(kernel.args.size()))
                    << pipeline.name << "/" << variant.name << "/" << kernel.name;
            }
    }
}
