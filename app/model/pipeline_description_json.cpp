#include "model/pipeline_description_json.h"

#include <QJsonArray>
#include <QJsonDocument>

#include "pipelines/element_program.h"

namespace fusescope::model {
namespace {

// Limits on what a file may declare; real descriptions are far below them.
constexpr qsizetype kMaxDescribedItems = 256;  // buffers, variants, kernels, names per list
constexpr qsizetype kMaxAssignments = 1024;

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

QJsonArray namesToJson(const std::vector<std::string>& names) {
    QJsonArray array;
    for (const std::string& name : names) array.append(text(name));
    return array;
}

struct RoleKey {
    BufferRole role;
    const char* key;
};
constexpr RoleKey kRoleKeys[] = {
    {BufferRole::Input, "input"}, {BufferRole::Output, "output"}, {BufferRole::Scratch, "scratch"}};

QString roleKey(BufferRole role) {
    for (const RoleKey& known : kRoleKeys)
        if (known.role == role) return QLatin1String(known.key);
    return {};
}

QJsonObject expressionToJson(const ElementExpression& expression) {
    QJsonObject object{{"op", text(expression.op)}};
    if (expression.op == "const") object.insert("value", expression.value);
    if (expression.op == "ref") object.insert("name", text(expression.name));
    if (!expression.args.empty()) {
        QJsonArray args;
        for (const ElementExpression& arg : expression.args) args.append(expressionToJson(arg));
        object.insert("args", args);
    }
    return object;
}

QJsonObject kernelToJson(const DescribedKernel& kernel) {
    return {{"name", text(kernel.name)},
            {"args", namesToJson(kernel.args)},
            {"reads", namesToJson(kernel.reads)},
            {"writes", namesToJson(kernel.writes)},
            {"flops_per_element", kernel.flopsPerElement},
            {"cuda_source", text(kernel.cudaSource)},
            {"cuda_entry", text(kernel.cudaEntry)}};
}

QJsonObject variantToJson(const DescribedVariant& variant) {
    QJsonArray kernels;
    for (const DescribedKernel& kernel : variant.kernels) kernels.append(kernelToJson(kernel));
    return {{"name", text(variant.name)},
            {"title", text(variant.title)},
            {"description", text(variant.description)},
            {"fused", variant.fused},
            {"buffers", namesToJson(variant.buffers)},
            {"kernels", kernels}};
}

// ---- Reading ----------------------------------------------------------------------------------

std::string stringOf(const JsonReader& reader, const char* key,
                     qsizetype maxLength = kMaxNameLength) {
    return reader.string(key, maxLength).toStdString();
}

std::string optionalStringOf(const JsonReader& reader, const char* key,
                             qsizetype maxLength = kMaxNameLength) {
    return reader.optionalString(key, maxLength).value_or(QString()).toStdString();
}

std::vector<std::string> readNames(const JsonReader& reader, const char* key) {
    std::vector<std::string> names;
    const QJsonArray array = reader.boundedArray(key, kMaxDescribedItems);
    for (const QJsonValue& value : array) {
        if (!value.isString() || value.toString().size() > kMaxNameLength)
            reader.fail(key, QStringLiteral("holds something other than a name"));
        names.push_back(value.toString().toStdString());
    }
    return names;
}

BufferRole readRole(const JsonReader& reader) {
    const QString role = reader.string("role");
    for (const RoleKey& known : kRoleKeys)
        if (role == QLatin1String(known.key)) return known.role;
    reader.fail("role", QStringLiteral("is \"%1\", not input, output or scratch").arg(role));
}

ElementExpression readExpression(const JsonReader& reader, int depth) {
    if (depth > kMaxElementExpressionDepth)
        reader.fail("args",
                    QStringLiteral("nest deeper than %1 levels").arg(kMaxElementExpressionDepth));
    ElementExpression expression;
    expression.op = stringOf(reader, "op");
    if (expression.op == "const") expression.value = reader.number("value");
    if (expression.op == "ref") expression.name = stringOf(reader, "name");
    if (const std::optional<QJsonArray> args = reader.optionalArray("args"))
        for (qsizetype i = 0; i < args->size(); ++i)
            expression.args.push_back(readExpression(reader.element(*args, "args", i), depth + 1));
    return expression;
}

DescribedKernel readKernel(const JsonReader& reader) {
    DescribedKernel kernel;
    kernel.name = stringOf(reader, "name");
    kernel.args = readNames(reader, "args");
    kernel.reads = readNames(reader, "reads");
    kernel.writes = readNames(reader, "writes");
    kernel.flopsPerElement = reader.numberIn("flops_per_element", 0.0, 1e9);
    kernel.cudaSource = optionalStringOf(reader, "cuda_source", kMaxCudaSourceLength);
    kernel.cudaEntry = optionalStringOf(reader, "cuda_entry");
    return kernel;
}

DescribedVariant readVariant(const JsonReader& reader) {
    DescribedVariant variant;
    variant.name = stringOf(reader, "name");
    variant.title = optionalStringOf(reader, "title");
    variant.description = optionalStringOf(reader, "description", kMaxFreeTextLength);
    variant.fused = reader.boolean("fused");
    variant.buffers = readNames(reader, "buffers");
    const QJsonArray kernels = reader.boundedArray("kernels", kMaxDescribedItems);
    for (qsizetype i = 0; i < kernels.size(); ++i)
        variant.kernels.push_back(readKernel(reader.element(kernels, "kernels", i)));
    return variant;
}

}  // namespace

QJsonObject pipelineDescriptionToJson(const PipelineDescription& description) {
    QJsonArray dimensions, buffers, variants, assignments;
    for (const DescribedDimension& dimension : description.dimensions)
        dimensions.append(QJsonObject{{"name", text(dimension.name)},
                                      {"title", text(dimension.title)},
                                      {"default", static_cast<qint64>(dimension.defaultValue)}});
    for (const DescribedBuffer& buffer : description.buffers) {
        QJsonObject object{{"name", text(buffer.name)}, {"role", roleKey(buffer.role)}};
        if (buffer.role == BufferRole::Input) {
            object.insert("low", static_cast<double>(buffer.low));
            object.insert("high", static_cast<double>(buffer.high));
        }
        buffers.append(object);
    }
    for (const DescribedVariant& variant : description.variants)
        variants.append(variantToJson(variant));
    for (const ElementAssignment& assignment : description.check.reference.assignments)
        assignments.append(QJsonObject{{"name", text(assignment.name)},
                                       {"value", expressionToJson(assignment.value)}});
    QJsonObject object{{"name", text(description.name)},
                       {"title", text(description.title)},
                       {"formula", text(description.formula)},
                       {"description", text(description.description)},
                       {"intermediate", text(description.intermediate)},
                       {"family", text(description.family)},
                       {"dimensions", dimensions},
                       {"buffers", buffers},
                       {"variants", variants},
                       {"check", QJsonObject{{"output", text(description.check.output)},
                                             {"reference", assignments}}}};
    // Written only where set: a family of its own reads as before.
    if (description.extendsBuiltIn) object.insert("extends_built_in", true);
    return object;
}

QByteArray pipelineDescriptionToJsonBytes(const PipelineDescription& description) {
    return QJsonDocument(pipelineDescriptionToJson(description)).toJson(QJsonDocument::Indented);
}

PipelineDescription readPipelineDescription(const JsonReader& reader) {
    PipelineDescription description;
    description.name = stringOf(reader, "name");
    description.title = optionalStringOf(reader, "title");
    description.formula = optionalStringOf(reader, "formula", kMaxFreeTextLength);
    description.description = optionalStringOf(reader, "description", kMaxFreeTextLength);
    description.intermediate = optionalStringOf(reader, "intermediate");
    description.family = stringOf(reader, "family");
    description.extendsBuiltIn = reader.optionalBoolean("extends_built_in").value_or(false);
    const QJsonArray dimensions = reader.boundedArray("dimensions", kMaxDescribedItems);
    for (qsizetype i = 0; i < dimensions.size(); ++i) {
        const JsonReader dimension = reader.element(dimensions, "dimensions", i);
        description.dimensions.push_back({stringOf(dimension, "name"),
                                          optionalStringOf(dimension, "title"),
                                          dimension.count("default")});
    }
    const QJsonArray buffers = reader.boundedArray("buffers", kMaxDescribedItems);
    for (qsizetype i = 0; i < buffers.size(); ++i) {
        const JsonReader buffer = reader.element(buffers, "buffers", i);
        DescribedBuffer described{stringOf(buffer, "name"), readRole(buffer)};
        if (described.role == BufferRole::Input) {
            described.low = static_cast<float>(buffer.numberIn("low", -1e30, 1e30));
            described.high = static_cast<float>(buffer.numberIn("high", -1e30, 1e30));
        }
        description.buffers.push_back(described);
    }
    const QJsonArray variants = reader.boundedArray("variants", kMaxDescribedItems);
    for (qsizetype i = 0; i < variants.size(); ++i)
        description.variants.push_back(readVariant(reader.element(variants, "variants", i)));
    const JsonReader check = reader.object("check");
    description.check.output = stringOf(check, "output");
    const QJsonArray assignments = check.boundedArray("reference", kMaxAssignments);
    for (qsizetype i = 0; i < assignments.size(); ++i) {
        const JsonReader assignment = check.element(assignments, "reference", i);
        description.check.reference.assignments.push_back(
            {stringOf(assignment, "name"), readExpression(assignment.object("value"), 0)});
    }
    return description;
}

Result<PipelineDescription> pipelineDescriptionFromJson(const QByteArray& json) {
    return readJsonObject<PipelineDescription>(json, "a pipeline description",
                                               readPipelineDescription);
}

}  // namespace fusescope::model
