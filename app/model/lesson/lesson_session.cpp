#include "model/lesson/lesson_session.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/atomic_save.h"
#include "model/limited_read.h"

namespace fusescope::model {
namespace {

constexpr char kSessionFormat[] = "fusescope-lesson-progress";
constexpr qint64 kMaxSessionBytes = qint64{16} << 20;

QJsonObject measuredToJson(const MeasuredAnswer& measured) {
    return QJsonObject{{QStringLiteral("value"), measured.value},
                       {QStringLiteral("text"), measured.text},
                       {QStringLiteral("order"), QJsonArray::fromStringList(measured.order)},
                       {QStringLiteral("source"), measured.source},
                       {QStringLiteral("reason"), measured.reason}};
}

MeasuredAnswer measuredFromJson(const QJsonObject& object) {
    MeasuredAnswer measured;
    measured.value = object.value(QStringLiteral("value")).toDouble();
    measured.text = object.value(QStringLiteral("text")).toString();
    for (const QJsonValue& name : object.value(QStringLiteral("order")).toArray())
        measured.order << name.toString();
    measured.source = object.value(QStringLiteral("source")).toString();
    measured.reason = object.value(QStringLiteral("reason")).toString();
    return measured;
}

QString csvField(QString text) {
    // A leading = + - @ would be read as a formula by spreadsheets.
    if (!text.isEmpty() && QStringLiteral("=+-@").contains(text.front()))
        text.prepend(QLatin1Char('\''));
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
        text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\'')))
        return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
               QLatin1Char('"');
    return text;
}

}  // namespace

void LessonSession::addAnswer(int step, const QString& answer, int hands) {
    if (step < 0 || step >= steps.size() || hands < 1) return;
    for (LessonAnswer& given : steps[step].answers)
        if (given.answer == answer) {
            given.hands += hands;
            return;
        }
    steps[step].answers.push_back({answer, hands});
}

int LessonSession::handsFor(int step) const {
    int total = 0;
    if (step >= 0 && step < steps.size())
        for (const LessonAnswer& given : steps[step].answers) total += given.hands;
    return total;
}

LessonSession startLessonSession(const QString& planPath, int stepCount) {
    LessonSession session;
    session.planPath = planPath;
    session.steps.resize(stepCount);
    return session;
}

QString lessonSessionPath(const QString& folder, const QString& planPath) {
    const QByteArray key = QCryptographicHash::hash(QFileInfo(planPath).absoluteFilePath().toUtf8(),
                                                    QCryptographicHash::Sha1);
    return QDir(folder).filePath(QFileInfo(planPath).completeBaseName() + QLatin1Char('-') +
                                 QString::fromLatin1(key.toHex().left(12)) +
                                 QStringLiteral(".progress.json"));
}

Status saveLessonSession(const LessonSession& session, const QString& path) {
    QJsonArray steps;
    for (const LessonStepProgress& progress : session.steps) {
        QJsonArray answers;
        for (const LessonAnswer& given : progress.answers)
            answers.append(QJsonObject{{QStringLiteral("answer"), given.answer},
                                       {QStringLiteral("hands"), given.hands}});
        QJsonObject step{{QStringLiteral("answers"), answers},
                         {QStringLiteral("revealed"), progress.revealed}};
        if (progress.measured)
            step.insert(QStringLiteral("measured"), measuredToJson(*progress.measured));
        steps.append(step);
    }
    const QJsonObject root{{QStringLiteral("format"), QLatin1String(kSessionFormat)},
                           {QStringLiteral("plan"), QFileInfo(session.planPath).absoluteFilePath()},
                           {QStringLiteral("current"), session.current},
                           {QStringLiteral("steps"), steps}};
    return saveBytesAtomically(QJsonDocument(root).toJson(), path);
}

Result<LessonSession> loadLessonSession(const QString& path, const QString& planPath,
                                        int stepCount) {
    Result<QByteArray> bytes = readFileLimited(path, kMaxSessionBytes);
    if (!bytes) return bytes.status();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(*bytes, &parseError);
    const QJsonObject root = document.object();
    if (parseError.error != QJsonParseError::NoError ||
        root.value(QStringLiteral("format")).toString() != QLatin1String(kSessionFormat))
        return Status(ErrorCode::InvalidArgument,
                      path.toStdString() + " is not a lesson's progress");
    if (root.value(QStringLiteral("plan")).toString() != QFileInfo(planPath).absoluteFilePath())
        return Status(ErrorCode::InvalidArgument,
                      path.toStdString() + " is the progress of another plan");
    LessonSession session = startLessonSession(planPath, stepCount);
    const QJsonArray steps = root.value(QStringLiteral("steps")).toArray();
    for (int index = 0; index < stepCount && index < steps.size(); ++index) {
        const QJsonObject step = steps[index].toObject();
        LessonStepProgress& progress = session.steps[index];
        for (const QJsonValue& value : step.value(QStringLiteral("answers")).toArray()) {
            const QJsonObject given = value.toObject();
            session.addAnswer(index, given.value(QStringLiteral("answer")).toString(),
                              given.value(QStringLiteral("hands")).toInt());
        }
        progress.revealed = step.value(QStringLiteral("revealed")).toBool();
        if (step.contains(QStringLiteral("measured")))
            progress.measured = measuredFromJson(step.value(QStringLiteral("measured")).toObject());
    }
    session.current =
        std::clamp(root.value(QStringLiteral("current")).toInt(), 0, std::max(0, stepCount - 1));
    return session;
}

QByteArray lessonCsv(const LessonPlan& plan, const LessonSession& session) {
    QStringList rows{QStringLiteral(
        "lesson,step,title,question,answer,hands,unit,measured,measured_text,off,source")};
    for (int index = 0; index < plan.steps.size() && index < session.steps.size(); ++index) {
        const LessonStep& step = plan.steps[index];
        if (!step.question) continue;
        const LessonStepProgress& progress = session.steps[index];
        QString unit = QStringLiteral("order");
        if (step.question->kind == QuestionKind::Number) unit = answerUnitKey(step.question->unit);
        if (step.question->kind == QuestionKind::Winner) unit = QStringLiteral("variant");
        if (step.question->kind == QuestionKind::Limit) unit = QStringLiteral("resource");
        for (const LessonAnswer& given : progress.answers) {
            QString measured;
            QString measuredText;
            QString off;
            QString source;
            if (progress.measured) {
                measured = step.question->kind == QuestionKind::Number
                               ? QString::number(progress.measured->value, 'g', 10)
                               : progress.measured->text;
                measuredText = progress.measured->text;
                off = judgeAnswer(step, given.answer, *progress.measured).offText;
                source = progress.measured->source;
            }
            rows << QStringList{csvField(plan.title),
                                QString::number(index + 1),
                                csvField(step.title),
                                csvField(step.question->text),
                                csvField(given.answer),
                                QString::number(given.hands),
                                unit,
                                csvField(measured),
                                csvField(measuredText),
                                csvField(off),
                                csvField(source)}
                        .join(QLatin1Char(','));
        }
    }
    return (rows.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

Status exportLessonCsv(const LessonPlan& plan, const LessonSession& session, const QString& path) {
    return saveBytesAtomically(lessonCsv(plan, session), path);
}

}  // namespace fusescope::model
