// `fusescope-cli expr "out = silu(g) * u"`: what FuseScope makes of a chain before anything runs:
// the predicted ledger of every variant (per kernel: arrays read and written, passes, bytes,
// bytes live) and, with --print-cuda, the CUDA it generates for them.
#include <QCommandLineParser>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/run_options.h"
#include "cli/shared_options.h"
#include "cli/text_table.h"
#include "expr/cuda_source.h"
#include "expr/ledger.h"
#include "expr/parser.h"
#include "model/format.h"

namespace fusescope::cli {
namespace {

QString joined(const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& name : names) list << QString::fromStdString(name);
    return list.isEmpty() ? QStringLiteral("-") : list.join(QStringLiteral(", "));
}

// The text, and a caret under the character the error points at.
void printParseError(const std::string& text, const expr::ParseError& error) {
    printError(QStringLiteral("the expression does not parse, %1")
                   .arg(QString::fromStdString(error.message())));
    const QString line = QString::fromStdString(text).replace(QLatin1Char('\n'), QLatin1Char(' '));
    printNote(QStringLiteral("  ") + line);
    printNote(QStringLiteral("  ") +
              QString(static_cast<qsizetype>(error.position), QLatin1Char(' ')) + QLatin1Char('^'));
}

void printLedger(const expr::Ledger& ledger) {
    printOut(QStringLiteral("%1: %2 kernel(s), %3 passes, %4 requested, %5 in flight "
                            "(every array allocated), %6 live at most (arrays freed after their "
                            "last use)")
                 .arg(QString::fromStdString(ledger.variant))
                 .arg(ledger.kernels.size())
                 .arg(ledger.passes)
                 .arg(model::formatBytes(ledger.bytes),
                      model::formatBytes(ledger.peakBytesInFlight),
                      model::formatBytes(ledger.peakBytesLive)));
    TextTable table;
    table.addColumns({{QStringLiteral("kernel"), TextTable::Align::Left},
                      {QStringLiteral("reads"), TextTable::Align::Left},
                      {QStringLiteral("writes"), TextTable::Align::Left},
                      {QStringLiteral("ops"), TextTable::Align::Right},
                      {QStringLiteral("passes"), TextTable::Align::Right},
                      {QStringLiteral("requested bytes"), TextTable::Align::Right},
                      {QStringLiteral("live bytes"), TextTable::Align::Right}});
    for (const expr::LedgerKernel& kernel : ledger.kernels)
        table.addRow({QString::fromStdString(kernel.name), joined(kernel.reads),
                      joined(kernel.writes), QString::number(kernel.operations),
                      QString::number(kernel.passes()), model::formatBytes(kernel.bytes()),
                      model::formatBytes(kernel.bytesLive)});
    printOut(table.render(QStringLiteral("  ")).join(QLatin1Char('\n')));
}

}  // namespace

int exprCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    const QCommandLineOption printCuda(QStringLiteral("print-cuda"),
                                       QStringLiteral("Print the generated CUDA kernels."));
    const QCommandLineOption vector(QStringLiteral("vector"), vectorWidthHelp(),
                                    QStringLiteral("width"), QStringLiteral("4"));
    const QCommandLineOption elements(
        QStringLiteral("n"), QStringLiteral("Elements per array for the ledger (default 2^24)."),
        QStringLiteral("count"), QStringLiteral("16777216"));
    if (std::optional<int> done = parseCommandLine(
            parser, {printCuda, vector, elements}, arguments,
            QStringLiteral(
                "Usage: fusescope-cli expr [--print-cuda] [--vector 1|4] [--n N] "
                "\"<expression>\"\n"
                "Parses an elementwise chain over named float32 arrays and prints the "
                "predicted ledger of\neach variant: unfused (one kernel per operation), "
                "fused (one kernel) and, where the\ntext has '|', your split. "
                "--print-cuda also prints the CUDA generated for them.\n\n"
                "The language: + - * / and unary minus; exp log sqrt rsqrt sigmoid silu "
                "tanh gelu abs\nmin max; numbers; `param name = number` for a scalar "
                "parameter; statements separated\nby ';' or '|'. A name read before it "
                "is assigned is an input array (at most 8); an\nassigned name nothing "
                "reads is an output; at most 16 operations. gelu is the tanh form.\n"
                "Example: fusescope-cli expr --print-cuda \"t = x * 2 | out = t + 3\"\n\n")))
        return *done;
    const QStringList texts = parser.positionalArguments();
    if (texts.size() != 1) {
        printError(QStringLiteral("expr takes one expression (quote it), got %1 arguments")
                       .arg(texts.size()));
        return kExitUsageError;
    }
    const Result<int> width = parseVectorWidth(parser.value(vector));
    if (!width) {
        printError(QString::fromStdString(width.status().message()));
        return kExitUsageError;
    }
    const Result<ElementCountOption> n =
        parseElementCountOption(QStringLiteral("--n"), parser.value(elements));
    if (!n || n->tooLarge || n->value == 0) {
        printError(n ? QStringLiteral("--n %1 is out of range").arg(parser.value(elements))
                     : QString::fromStdString(n.status().message()));
        return kExitUsageError;
    }
    const std::string text = texts.constFirst().toStdString();
    const expr::ParseResult parsed = expr::parseProgram(text);
    if (!parsed) {
        printParseError(text, parsed.error());
        return kExitUsageError;
    }
    const expr::Program& program = parsed.program();
    for (const expr::Strategy strategy : expr::strategiesOf(program)) {
        const expr::VariantPlan plan = expr::planVariant(program, strategy);
        printLedger(expr::predictLedger(program, plan, n->value));
        if (parser.isSet(printCuda))
            printOut(QString::fromStdString(expr::cudaSourceText(program, plan, *width)));
        printOut(QString());
    }
    return kExitOk;
}

}  // namespace fusescope::cli
