// A pipeline description as JSON: the round trip keeps every field, a bad field is named by its
// path, and a recording carries the descriptions of the run-time pipelines its runs name (and
// only those), registering them again when it is read.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/pipeline_description_json.h"
#include "model/recorded_pipelines.h"
#include "model/recording_json.h"
#include "support/runtime_chain.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

Recording recordingOf(const QString& pipeline) {
    Recording recording;
    VariantResult run;
    run.pipeline = pipeline.toStdString();
    run.variant = "fused";
    run.backend = BackendKind::Cpu;
    run.problem.dimensions["N"] = 1000;
    run.timeMs = 1.0;
    run.check.ok = true;
    recording.runs.push_back(run);
    recording.roofline.timeMs = 1.0;
    return recording;
}

}  // namespace

TEST(PipelineDescriptionJson, TheRoundTripKeepsEveryField) {
    PipelineDescription description = test::chainDescription();
    description.check.reference.assignments.push_back(
        {"extra", ElementExpression{"gelu", 0.0, "", {test::constant(-0.125)}}});
    Result<PipelineDescription> read =
        pipelineDescriptionFromJson(pipelineDescriptionToJsonBytes(description));
    ASSERT_TRUE(read) << read.status().message();
    EXPECT_EQ(*read, description);
    EXPECT_EQ(read->variants[0].kernels[1].cudaSource,
              description.variants[0].kernels[1].cudaSource);
}

TEST(PipelineDescriptionJson, ABadFieldIsNamedByItsPath) {
    QJsonObject object = pipelineDescriptionToJson(test::chainDescription());
    QJsonArray buffers = object["buffers"].toArray();
    QJsonObject first = buffers[2].toObject();
    first["role"] = "temporary";
    buffers[2] = first;
    object["buffers"] = buffers;
    Result<PipelineDescription> read = pipelineDescriptionFromJson(QJsonDocument(object).toJson());
    ASSERT_FALSE(read);
    EXPECT_NE(read.status().message().find("buffers[2].role"), std::string::npos)
        << read.status().message();
}

TEST(PipelineDescriptionJson, ARecordingCarriesOnlyRunTimePipelinesAndRegistersThemWhenOpened) {
    Result<QJsonObject> builtIn = recordingToJson(recordingOf("affine"));
    ASSERT_TRUE(builtIn);
    EXPECT_FALSE(builtIn->contains("pipelines"));

    Result<RuntimePipeline> pipeline = makePipelineFromDescription(test::chainDescription());
    ASSERT_TRUE(pipeline);
    ASSERT_TRUE(registerPipeline(std::move(*pipeline)));
    test::RegisteredForTest registered{"runtime_chain"};
    Result<QByteArray> bytes = recordingToJsonBytes(recordingOf("runtime_chain"));
    ASSERT_TRUE(bytes) << bytes.status().message();
    EXPECT_EQ(QJsonDocument::fromJson(*bytes).object()["pipelines"].toArray().size(), 1);

    ASSERT_TRUE(unregisterPipeline("runtime_chain"));
    Result<Recording> read = recordingFromJson(*bytes, "chain.json");
    ASSERT_TRUE(read) << read.status().message();
    ASSERT_EQ(read->pipelineDescriptions.size(), 1);
    EXPECT_EQ(read->pipelineDescriptions.front(), test::chainDescription());
    EXPECT_EQ(findPipeline("runtime_chain"), nullptr);  // reading registers nothing
    ASSERT_TRUE(registerRecordedPipelines(*read));
    const PipelineSpec* spec = findPipeline("runtime_chain");
    ASSERT_NE(spec, nullptr);
    EXPECT_EQ(spec->title, "Three-step chain");
    // Registered again with the same description: the family registered is kept, not replaced.
    ASSERT_TRUE(registerRecordedPipelines(*read));
    EXPECT_EQ(findPipeline("runtime_chain"), spec);
}

TEST(PipelineDescriptionJson,
     ARecordingWithADescriptionThatCannotBeRegisteredIsReadButRefusedWhenOpened) {
    Recording recording = recordingOf("runtime_chain");
    PipelineDescription description = test::chainDescription();
    description.variants[1].buffers.pop_back();  // the fused variant lacks its output
    recording.pipelineDescriptions.push_back(description);
    Result<QByteArray> bytes = recordingToJsonBytes(recording);
    ASSERT_TRUE(bytes);
    Result<Recording> read = recordingFromJson(*bytes, "broken.json");
    ASSERT_TRUE(read) << read.status().message();
    const Status registered = registerRecordedPipelines(*read);
    ASSERT_FALSE(registered);
    EXPECT_NE(registered.message().find("lacks buffer 'out'"), std::string::npos)
        << registered.message();
    EXPECT_EQ(findPipeline("runtime_chain"), nullptr);
}
