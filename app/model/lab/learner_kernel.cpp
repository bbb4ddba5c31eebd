#include "model/lab/learner_kernel.h"

#include <QRegularExpression>
#include <optional>

#include "expr/parser.h"
#include "model/atomic_save.h"
#include "model/limited_read.h"

namespace fusescope::model {
namespace {

const QString kMagic = QStringLiteral("// fusescope-kernel 1");
const QString kEnd = QStringLiteral("// end");
// A kernel file is source text: a megabyte is far past any kernel a learner types.
constexpr qint64 kMaxKernelFileBytes = qint64{1} << 20;

Status lineError(int line, const QString& what) {
    return Status(ErrorCode::InvalidArgument,
                  QStringLiteral("line %1: %2").arg(line).arg(what).toStdString());
}

bool isIdentifier(const QString& text) {
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return identifier.match(text).hasMatch();
}

struct RoleWord {
    LearnerBufferRole role;
    const char* word;
};
// As a kernel file's header spells them.
constexpr RoleWord kRoleWords[] = {{LearnerBufferRole::Input, "input"},
                                   {LearnerBufferRole::Output, "output"},
                                   {LearnerBufferRole::Scratch, "scratch"}};

std::optional<LearnerBufferRole> roleFromWord(const QString& word) {
    for (const RoleWord& entry : kRoleWords)
        if (word == QLatin1String(entry.word)) return entry.role;
    return std::nullopt;
}

struct HeaderState {
    LearnerKernel kernel;
    bool ended = false;
};

Status readBuffer(const QStringList& words, int line, HeaderState& state) {
    if (words.size() != 2)
        return lineError(line, QStringLiteral("a buffer is \"buffer: ROLE NAME\""));
    LearnerBuffer buffer;
    if (const std::optional<LearnerBufferRole> role = roleFromWord(words[0]))
        buffer.role = *role;
    else
        return lineError(
            line,
            QStringLiteral("the role \"%1\" is none of input, output, scratch").arg(words[0]));
    if (!isIdentifier(words[1]))
        return lineError(line, QStringLiteral("\"%1\" is no C identifier").arg(words[1]));
    for (const LearnerBuffer& other : state.kernel.buffers)
        if (other.name == words[1])
            return lineError(line,
                             QStringLiteral("the buffer \"%1\" is declared twice").arg(words[1]));
    buffer.name = words[1];
    state.kernel.buffers.push_back(buffer);
    return Status::ok();
}

Status readPass(const QStringList& words, int line, HeaderState& state) {
    if (words.size() != 2 ||
        (words[0] != QLatin1String("read") && words[0] != QLatin1String("write")))
        return lineError(line,
                         QStringLiteral("a pass is \"pass: read NAME\" or \"pass: write NAME\""));
    bool known = false;
    for (const LearnerBuffer& buffer : state.kernel.buffers) known |= buffer.name == words[1];
    if (!known)
        return lineError(
            line, QStringLiteral("the pass names \"%1\", which no buffer line above declares")
                      .arg(words[1]));
    state.kernel.passes.push_back({words[0] == QLatin1String("write"), words[1]});
    return Status::ok();
}

Status readHeaderLine(const QString& text, int line, HeaderState& state) {
    if (text.trimmed() == kEnd) {
        state.ended = true;
        return Status::ok();
    }
    if (!text.startsWith(QLatin1String("// ")))
        return lineError(line, QStringLiteral("the header ends with \"// end\" before any code"));
    const QString body = text.mid(3);
    const qsizetype colon = body.indexOf(QLatin1Char(':'));
    if (colon < 0) return lineError(line, QStringLiteral("expected \"KEY: VALUE\""));
    const QString key = body.left(colon).trimmed();
    const QString value = body.mid(colon + 1).trimmed();
    const QStringList words = value.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (key == QLatin1String("entry") || key == QLatin1String("reference")) {
        if (!isIdentifier(value))
            return lineError(line, QStringLiteral("%1 \"%2\" is no C identifier").arg(key, value));
        QString& field =
            key == QLatin1String("entry") ? state.kernel.entry : state.kernel.reference;
        if (!field.isEmpty()) return lineError(line, QStringLiteral("%1 is given twice").arg(key));
        field = value;
        return Status::ok();
    }
    if (key == QLatin1String("expression")) {
        if (value.isEmpty()) return lineError(line, QStringLiteral("the expression is empty"));
        if (!state.kernel.expression.isEmpty())
            return lineError(line, QStringLiteral("expression is given twice"));
        state.kernel.expression = value;
        return Status::ok();
    }
    if (key == QLatin1String("buffer")) return readBuffer(words, line, state);
    if (key == QLatin1String("pass")) return readPass(words, line, state);
    return lineError(
        line,
        QStringLiteral("unknown key \"%1\" (entry, reference, expression, buffer, pass)").arg(key));
}

Status checkComplete(const LearnerKernel& kernel, int endLine) {
    if (kernel.entry.isEmpty()) return lineError(endLine, QStringLiteral("no \"entry:\" line"));
    if (kernel.reference.isEmpty() == kernel.expression.isEmpty())
        return lineError(endLine,
                         QStringLiteral("give a \"reference:\" line or an \"expression:\" line, "
                                        "one of them"));
    bool output = false;
    for (const LearnerBuffer& buffer : kernel.buffers)
        output |= buffer.role == LearnerBufferRole::Output;
    if (!output) return lineError(endLine, QStringLiteral("no output buffer"));
    return Status::ok();
}

}  // namespace

std::uint64_t LearnerKernel::peakBytes(std::uint64_t n) const {
    return static_cast<std::uint64_t>(buffers.size()) * n * sizeof(float);
}

QString roleName(LearnerBufferRole role) {
    for (const RoleWord& entry : kRoleWords)
        if (entry.role == role) return QLatin1String(entry.word);
    return {};
}

Result<LearnerKernel> blankKernelFor(const QString& expression, const QString& entry) {
    const expr::ParseResult parsed = expr::parseProgram(expression.toStdString());
    if (!parsed) return parsed.status();
    const expr::Program& program = parsed.program();
    LearnerKernel kernel;
    kernel.entry = entry;
    kernel.expression = expression.simplified();
    for (const std::string& input : program.inputs) {
        kernel.buffers.push_back({QString::fromStdString(input), LearnerBufferRole::Input});
        kernel.passes.push_back({false, QString::fromStdString(input)});
    }
    for (std::size_t k = 0; k < program.outputs.size(); ++k) {
        const bool checked = k + 1 == program.outputs.size();
        const QString name = QString::fromStdString(program.outputs[k].name);
        kernel.buffers.push_back(
            {name, checked ? LearnerBufferRole::Output : LearnerBufferRole::Scratch});
        kernel.passes.push_back({true, name});
    }
    return kernel;
}

Result<LearnerKernel> parseLearnerKernel(const QString& text) {
    const QStringList lines = text.split(QLatin1Char('\n'));
    if (lines.isEmpty() || lines[0].trimmed() != kMagic)
        return lineError(1, QStringLiteral("a kernel file starts with \"%1\"").arg(kMagic));
    HeaderState state;
    int index = 1;
    for (; index < lines.size() && !state.ended; ++index)
        if (Status s = readHeaderLine(lines[index], index + 1, state); !s) return s;
    if (!state.ended)
        return lineError(static_cast<int>(lines.size()),
                         QStringLiteral("the file ends inside the header (no \"// end\")"));
    if (Status s = checkComplete(state.kernel, index); !s) return s;
    state.kernel.source = lines.mid(index).join(QLatin1Char('\n'));
    return state.kernel;
}

QString writeLearnerKernel(const LearnerKernel& kernel) {
    QStringList lines{kMagic, QStringLiteral("// entry: ") + kernel.entry,
                      kernel.expression.isEmpty()
                          ? QStringLiteral("// reference: ") + kernel.reference
                          : QStringLiteral("// expression: ") + kernel.expression};
    for (const LearnerBuffer& buffer : kernel.buffers)
        lines << QStringLiteral("// buffer: %1 %2").arg(roleName(buffer.role), buffer.name);
    for (const LearnerPass& pass : kernel.passes)
        lines << QStringLiteral("// pass: %1 %2")
                     .arg(pass.write ? QStringLiteral("write") : QStringLiteral("read"),
                          pass.buffer);
    lines << kEnd;
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n') + kernel.source;
}

Result<LearnerKernel> loadLearnerKernel(const QString& path) {
    Result<QByteArray> bytes = readFileLimited(path, kMaxKernelFileBytes);
    if (!bytes) return bytes.status();
    Result<LearnerKernel> kernel = parseLearnerKernel(QString::fromUtf8(*bytes));
    if (!kernel)
        return Status(kernel.status().code(),
                      path.toStdString() + ": " + kernel.status().message());
    return kernel;
}

Status saveLearnerKernel(const LearnerKernel& kernel, const QString& path) {
    return saveBytesAtomically(writeLearnerKernel(kernel).toUtf8(), path);
}

}  // namespace fusescope::model
