#include "model/expression_preview.h"

#include "expr/cuda_source.h"
#include "expr/expression_pipeline.h"
#include "expr/ledger.h"
#include "expr/parser.h"
#include "model/problem_options.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

QStringList names(const std::vector<std::string>& values) {
    QStringList list;
    for (const std::string& value : values) list << QString::fromStdString(value);
    return list;
}

ExpressionVariantLedger variantLedger(const expr::Ledger& ledger) {
    ExpressionVariantLedger variant;
    variant.variant = QString::fromStdString(ledger.variant);
    for (const expr::LedgerKernel& kernel : ledger.kernels)
        variant.kernels.push_back({QString::fromStdString(kernel.name), names(kernel.reads),
                                   names(kernel.writes), kernel.operations, kernel.passes(),
                                   kernel.bytes(), kernel.bytesLive});
    variant.passes = ledger.passes;
    variant.requestedBytes = ledger.bytes;
    variant.peakLiveBytes = ledger.peakBytesLive;
    variant.peakInFlightBytes = ledger.peakBytesInFlight;
    return variant;
}

}  // namespace

ExpressionPreview previewExpression(const QString& text, quint64 n, int vectorWidth) {
    ExpressionPreview preview;
    const expr::ParseResult parsed = expr::parseProgram(text.toStdString());
    if (!parsed) {
        preview.errorPosition = static_cast<int>(parsed.error().position);
        preview.error = QString::fromStdString(parsed.error().message());
        return preview;
    }
    preview.ok = true;
    const expr::Program& program = parsed.program();
    for (const expr::Strategy strategy : expr::strategiesOf(program)) {
        const expr::VariantPlan plan = expr::planVariant(program, strategy);
        preview.variants.push_back(variantLedger(expr::predictLedger(program, plan, n)));
        preview.cuda += QString::fromStdString(expr::cudaSourceText(program, plan, vectorWidth));
        preview.cuda += QLatin1Char('\n');
    }
    return preview;
}

Result<RunRequest> expressionRunRequest(const QString& text, quint64 n, int vectorWidth) {
    Result<const PipelineSpec*> registered = expr::registerExpression(text.toStdString());
    if (!registered) return registered.status();
    const PipelineSpec& pipeline = **registered;
    ProblemText problemText;
    problemText.dimensions =
        QStringLiteral("%1=%2").arg(QLatin1String(kElementCountDimension.data())).arg(n);
    problemText.tuning =
        QStringLiteral("%1=%2").arg(QLatin1String(kVectorWidthTuning.data())).arg(vectorWidth);
    Result<Problem> problem = problemFromText(pipeline, problemText);
    if (!problem) return problem.status();
    RunRequest request;
    request.pipeline = pipeline.name;
    request.problem = *problem;
    return request;
}

}  // namespace fusescope::model
