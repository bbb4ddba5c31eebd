#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "pipelines/kernel_execution.h"
#include "pipelines/registry.h"
#include "support/pipeline_problems.h"

using namespace fusescope;

namespace {

std::uint64_t passesOf(const std::vector<KernelSpec>& kernels) {
    std::uint64_t passes = 0;
    for (const auto& kernel : kernels) passes += kernel.passReads.size() + kernel.passWrites.size();
    return passes;
}

KernelTraffic totalOf(const std::vector<KernelSpec>& kernels) {
    KernelTraffic total;
    for (const auto& kernel : kernels) {
        total.buffers.push_back({"", kernel.traffic.bytesRead(), kernel.traffic.bytesWritten()});
        total.flops += kernel.traffic.flops;
    }
    return total;
}

Problem elementwise(const PipelineSpec& pipeline, std::uint64_t n) {
    Problem problem = pipeline.defaultProblem();
    problem.dimensions["N"] = n;
    return problem;
}

}  // namespace

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
    const PipelineSpec* mlp = findPipeline("mlp");
    ASSERT_NE(mlp, nullptr);
    for (const char* name : {"unfused", "lesson_fused", "production", "merged_gate_up"})
        EXPECT_NE(findVariant(*mlp, name), nullptr) << name;
    EXPECT_EQ(findPipeline("nope"), nullptr);
}

// Every declaration is complete and consistent, and every kernel has code on the CPU backend,
// at the default problem and at every preset.
TEST(Registry, EveryKernelNamesDeclaredBuffersAndHasCpuCode) {
    const ExecutionCatalog cpu = makeCpuExecutions();
    for (const auto& pipeline : pipelines()) {
        EXPECT_TRUE(pipeline.makeInputs) << pipeline.name;
        EXPECT_TRUE(pipeline.check) << pipeline.name;
        EXPECT_TRUE(pipeline.rooflineBytes) << pipeline.name;
        EXPECT_FALSE(pipeline.dtypes.empty()) << pipeline.name;
        EXPECT_NE(pipeline.findDimension(pipeline.sizeDimension), nullptr) << pipeline.name;
        for (const Problem& problem : testing_support::defaultAndPresetProblems(pipeline)) {
            ASSERT_TRUE(checkProblem(pipeline, problem)) << pipeline.name;
            for (const auto& variant : pipeline.variants) {
                std::set<std::string> names;
                int outputs = 0;
                for (const auto& buffer : variant.buffers) {
                    EXPECT_TRUE(names.insert(buffer.name).second) << "duplicate " << buffer.name;
                    outputs += buffer.role == BufferRole::Output;
                    EXPECT_GT(buffer.bytes(problem), 0u) << buffer.name;
                    for (const auto& extent : buffer.extents)
                        EXPECT_NE(pipeline.findDimension(extent), nullptr) << extent;
                }
                EXPECT_EQ(outputs, 1) << variant.name;
                const std::vector<KernelSpec> kernels = variant.kernelsFor(problem);
                EXPECT_FALSE(kernels.empty()) << variant.name;
                for (const auto& kernel : kernels) {
                    EXPECT_TRUE(cpu.count(kernel.execution)) << kernel.execution;
                    for (const auto& name : kernel.args)
                        EXPECT_TRUE(names.count(name))
                            << pipeline.name << "/" << variant.name << " kernel " << kernel.name
                            << " uses " << name;
                    for (const auto& traffic : kernel.traffic.buffers)
                        EXPECT_TRUE(names.count(traffic.buffer)) << traffic.buffer;
                    EXPECT_GT(kernel.traffic.bytesRead() + kernel.traffic.bytesWritten(), 0u);
                }
            }
        }
    }
}

TEST(PassModel, MatchesTheLesson) {
    const PipelineSpec& swiglu = *findPipeline("swiglu");
    const Problem problem = elementwise(swiglu, 1000);
    const std::uint64_t array = 1000 * sizeof(float);
    EXPECT_EQ(passesOf(findVariant(swiglu, "scratch")->kernelsFor(problem)), 5u);
    EXPECT_EQ(passesOf(findVariant(swiglu, "two_launch")->kernelsFor(problem)), 5u);
    const std::vector<KernelSpec> fused = findVariant(swiglu, "fused")->kernelsFor(problem);
    EXPECT_EQ(passesOf(fused), 3u);
    EXPECT_EQ(totalOf(fused).bytesRead(), 2 * array);
    EXPECT_EQ(totalOf(fused).bytesWritten(), 1 * array);

    const PipelineSpec& affine = *findPipeline("affine");
    const Problem affineProblem = elementwise(affine, 1000);
    EXPECT_EQ(passesOf(findVariant(affine, "unfused")->kernelsFor(affineProblem)), 4u);
    EXPECT_EQ(passesOf(findVariant(affine, "fused")->kernelsFor(affineProblem)), 2u);
    const std::vector<KernelSpec> twoLaunch =
        findVariant(swiglu, "two_launch")->kernelsFor(problem);
    ASSERT_EQ(twoLaunch.size(), 2u);
    EXPECT_EQ(twoLaunch[1].traffic.bytesRead(), 2 * array);
}

TEST(Registry, VectorWidths) {
    EXPECT_TRUE(isSupportedVectorWidth(1));
    EXPECT_TRUE(isSupportedVectorWidth(4));
    EXPECT_FALSE(isSupportedVectorWidth(2));
    EXPECT_FALSE(isSupportedVectorWidth(0));
}

// Bad problems are refused by the declarations, with the reason, before anything is allocated.
TEST(Registry, RefusesBadProblemsWithTheReason) {
    const PipelineSpec& mlp = *findPipeline("mlp");
    Problem problem = mlp.defaultProblem();
    problem.dimensions["M"] = 0;
    Status refused = checkProblem(mlp, problem);
    EXPECT_FALSE(refused);
    EXPECT_NE(refused.message().find("M = 0"), std::string::npos) << refused.message();

    problem = mlp.defaultProblem();
    problem.dimensions["H"] = std::uint64_t{1} << 40;  // absurd
    EXPECT_FALSE(checkProblem(mlp, problem));

    problem = mlp.defaultProblem();
    problem.dimensions["N"] = 5;  // not a dimension of the MLP
    refused = checkProblem(mlp, problem);
    EXPECT_NE(refused.message().find("no dimension N"), std::string::npos) << refused.message();

    problem = mlp.defaultProblem();
    problem.tuning["block_m"] = 48;
    EXPECT_FALSE(checkProblem(mlp, problem));

    const PipelineSpec& swiglu = *findPipeline("swiglu");
    problem = swiglu.defaultProblem();
    problem.dtype = DType::Bfloat16;  // the elementwise lessons are float32
    EXPECT_FALSE(checkProblem(swiglu, problem));
}

TEST(Registry, Tf32IsFloat32StorageLabelledAsTf32Math) {
    EXPECT_EQ(parseDType("tf32"), DType::Tf32);
    EXPECT_EQ(parseDType("float32"), DType::Float32);
    EXPECT_FALSE(parseDType("TF32 math"));
    EXPECT_EQ(dtypeName(DType::Tf32), "tf32");
    EXPECT_EQ(parseDType(dtypeName(DType::Tf32)), DType::Tf32);
    // Shown words say TF32; the stored element is a float32.
    EXPECT_NE(std::string(dtypeTitle(DType::Tf32)).find("TF32"), std::string::npos);
    EXPECT_EQ(dtypeTitle(DType::Float32), "float32");
    EXPECT_EQ(dtypeBytes(DType::Tf32), 4u);

    const PipelineSpec& mlp = *findPipeline("mlp");
    Problem problem = withPreset(mlp.defaultProblem(), *mlp.findPreset("classroom"));
    problem.dtype = DType::Tf32;
    EXPECT_TRUE(checkProblem(mlp, problem));
    EXPECT_NE(describeProblem(mlp, problem, {}).find("float32 (TF32 math)"), std::string::npos)
        << describeProblem(mlp, problem, {});
    // Every buffer holds 4 bytes an element, as in float32, and the traffic is float32's.
    Problem float32 = problem;
    float32.dtype = DType::Float32;
    for (const VariantSpec& variant : mlp.variants) {
        SCOPED_TRACE(variant.name);
        for (const BufferSpec& buffer : variant.buffers)
            EXPECT_EQ(buffer.bytes(problem), buffer.elements(problem) * 4);
        const KernelTraffic tf32Traffic = totalOf(variant.kernelsFor(problem));
        const KernelTraffic float32Traffic = totalOf(variant.kernelsFor(float32));
        EXPECT_EQ(tf32Traffic.bytesRead(), float32Traffic.bytesRead());
        EXPECT_EQ(tf32Traffic.bytesWritten(), float32Traffic.bytesWritten());
        EXPECT_GT(tf32Traffic.bytesRead(), 0u);
    }
    const std::optional<ComputeRoofSpec> roof = mlp.computeRoof(problem);
    ASSERT_TRUE(roof);
    EXPECT_EQ(roof->problem.dtype, DType::Tf32);
    EXPECT_NE(roof->description.find("TF32"), std::string::npos) << roof->description;

    // The elementwise lessons declare float32 only: tf32 is refused by their declaration.
    const PipelineSpec& swiglu = *findPipeline("swiglu");
    Problem elementwiseTf32 = swiglu.defaultProblem();
    elementwiseTf32.dtype = DType::Tf32;
    const Status refused = checkProblem(swiglu, elementwiseTf32);
    EXPECT_FALSE(refused);
    EXPECT_NE(refused.message().find("not tf32"), std::string::npos) << refused.message();
}

TEST(Registry, MissingValuesTakeTheDefaultsAndPresetsApply) {
    const PipelineSpec& mlp = *findPipeline("mlp");
    Problem partial;
    partial.dimensions["M"] = 3;
    const Problem completed = withDefaults(mlp, partial);
    EXPECT_EQ(completed.dimension("M"), 3u);
    EXPECT_EQ(completed.dimension("H"), mlp.findDimension("H")->defaultValue);
    EXPECT_EQ(completed.tuningValue("block_n"), 64);
    const Problem classroom = withPreset(mlp.defaultProblem(), *mlp.findPreset("classroom"));
    EXPECT_EQ(classroom.dimension("M"), 512u);
    EXPECT_EQ(classroom.dimension("H"), 1024u);
    EXPECT_EQ(classroom.dimension("I"), 2816u);
    EXPECT_EQ(
        describeProblem(*findPipeline("swiglu"), findPipeline("swiglu")->defaultProblem(), {}),
        "N = 16,777,216 · float32 · vector 4");
}

// Tiles said together, so that a narrow caption keeps them: titles that share the first's
// prefix and have one value each are one part; a title without the prefix, or with several
// values (runs that differ), stands alone.
TEST(Registry, TuningsSharingAPrefixAreNamedTogether) {
    EXPECT_EQ(titlesSharingPrefix({"BLOCK_M", "BLOCK_N", "TILE_I", "BLOCK_H"}),
              "BLOCK_M/N/TILE_I/H");
    EXPECT_EQ(titlesSharingPrefix({"vector"}), "vector");
    EXPECT_EQ(tuningsText({{"BLOCK_M", "32"}, {"BLOCK_N", "64"}, {"vector", "4"}}),
              "BLOCK_M/N 32/64 · vector 4");
    EXPECT_EQ(tuningsText({{"BLOCK_M", "32 / 64", false}, {"BLOCK_N", "64"}, {"BLOCK_H", "32"}}),
              "BLOCK_M 32 / 64 · BLOCK_N/H 64/32");
    EXPECT_EQ(tuningsText({{"TILE_M", "128"}, {"BLOCK_M", "32"}, {"BLOCK_N", "64"}}),
              "TILE_M 128 · BLOCK_M/N 32/64");
    EXPECT_EQ(tuningsText({{"vector", "4"}, {"vector_2", "1"}}), "vector 4 · vector_2 1");
    EXPECT_EQ(tuningsText({}), "");
}

// A caption names the tiles a variant's kernels take and no other: the cuBLAS variants none, the
// lesson's kernel its BLOCK tiles, the production fusion its TILE tiles at prefill sizes only
// (its decode kernels stream weights with no tiles).
TEST(Registry, ProblemTextNamesOnlyTheTuningsTheVariantTakes) {
    const PipelineSpec& mlp = *findPipeline("mlp");
    // " · BLOCK_M/N/H/I 32/64/64/64": the parameters named, at their declared defaults.
    const auto shown = [&](const char* titles, std::initializer_list<const char*> names) {
        std::string values;
        for (const char* name : names)
            values +=
                (values.empty() ? "" : "/") + std::to_string(mlp.findTuning(name)->defaultValue);
        return std::string(" · ") + titles + " " + values;
    };
    const std::string lesson = shown("BLOCK_M/N/H/I", {"block_m", "block_n", "block_h", "block_i"});
    const std::string production = shown("TILE_M/I", {"tile_m", "tile_i"});
    const Problem classroom = withPreset(mlp.defaultProblem(), *mlp.findPreset("classroom"));
    const Problem decode = withPreset(mlp.defaultProblem(), *mlp.findPreset("decode-1"));
    const std::string dimensions = "M = 512, H = 1,024, I = 2,816 · bfloat16";
    EXPECT_EQ(describeProblem(mlp, classroom, {"unfused"}), dimensions);
    EXPECT_EQ(describeProblem(mlp, classroom, {"merged_gate_up"}), dimensions);
    EXPECT_EQ(describeProblem(mlp, classroom, {"lesson_fused"}), dimensions + lesson);
    EXPECT_EQ(describeProblem(mlp, classroom, {"production"}), dimensions + production);
    EXPECT_EQ(describeProblem(mlp, decode, {"production"}),
              "M = 1, H = 4,096, I = 14,336 · bfloat16");
    // Several variants: the tunings any of them takes; none named: every variant's.
    EXPECT_EQ(describeProblem(mlp, classroom, {"unfused", "production"}), dimensions + production);
    EXPECT_EQ(describeProblem(mlp, classroom, {}), dimensions + lesson + production);
    EXPECT_EQ(describeProblem(mlp, decode, {}), "M = 1, H = 4,096, I = 14,336 · bfloat16" + lesson);
    // The elementwise pipelines' vector width is every variant's.
    const PipelineSpec& swiglu = *findPipeline("swiglu");
    for (const VariantSpec& variant : swiglu.variants)
        EXPECT_EQ(describeProblem(swiglu, swiglu.defaultProblem(), {variant.name}),
                  "N = 16,777,216 · float32 · vector 4");
}

// The declarations hold: a tuning parameter a variant is declared not to take for a problem
// changes none of its kernels (names, traffic, flops) at any allowed value.
TEST(Registry, ATuningAVariantDoesNotTakeLeavesItsKernelsAlone) {
    int checked = 0;
    for (const PipelineSpec& pipeline : pipelines()) {
        for (const Problem& problem : testing_support::defaultAndPresetProblems(pipeline))
            for (const VariantSpec& variant : pipeline.variants)
                for (const TuningSpec& tuning : pipeline.tunings) {
                    if (tuning.usedBy(variant.name, problem)) continue;
                    const std::vector<KernelSpec> base = variant.kernelsFor(problem);
                    for (int value : tuning.allowed) {
                        Problem changed = problem;
                        changed.tuning[tuning.name] = value;
                        const std::vector<KernelSpec> kernels = variant.kernelsFor(changed);
                        ASSERT_EQ(kernels.size(), base.size()) << variant.name << tuning.name;
                        for (std::size_t k = 0; k < kernels.size(); ++k) {
                            EXPECT_EQ(kernels[k].name, base[k].name);
                            EXPECT_EQ(kernels[k].traffic.bytesRead(), base[k].traffic.bytesRead())
                                << pipeline.name << " " << variant.name << " " << tuning.name << " "
                                << value;
                            EXPECT_EQ(kernels[k].traffic.bytesWritten(),
                                      base[k].traffic.bytesWritten());
                            EXPECT_EQ(kernels[k].traffic.flops, base[k].traffic.flops);
                        }
                        ++checked;
                    }
                }
    }
    EXPECT_GT(checked, 0);
}

// The counterparts a variant declares name a variant of its pipeline and kernels the two plans
// launch: each declared kernel of the fused variant runs at some preset, and there its
// counterparts run in the other variant's plan for the same problem.
TEST(Registry, CounterpartsNameKernelsThePlansLaunch) {
    int declared = 0;
    for (const PipelineSpec& pipeline : pipelines())
        for (const VariantSpec& variant : pipeline.variants)
            for (const VariantCounterparts& counterparts : variant.counterparts) {
                const VariantSpec* other = findVariant(pipeline, counterparts.variant);
                ASSERT_NE(other, nullptr) << counterparts.variant;
                for (const KernelCounterparts& kernel : counterparts.kernels) {
                    SCOPED_TRACE(variant.name + " " + kernel.kernel + " against " + other->name);
                    bool launched = false;
                    for (const PresetSpec& preset : pipeline.presets) {
                        const Problem problem =
                            withDefaults(pipeline, withPreset(pipeline.defaultProblem(), preset));
                        const auto named = [](const std::vector<KernelSpec>& kernels,
                                              const std::string& name) {
                            return std::any_of(kernels.begin(), kernels.end(),
                                               [&](const KernelSpec& k) { return k.name == name; });
                        };
                        if (!named(variant.kernelsFor(problem), kernel.kernel)) continue;
                        launched = true;
                        for (const std::string& name : kernel.counterparts)
                            EXPECT_TRUE(named(other->kernelsFor(problem), name))
                                << name << " at " << preset.name;
                    }
                    EXPECT_TRUE(launched);
                    ++declared;
                }
            }
    EXPECT_GT(declared, 0);
}
