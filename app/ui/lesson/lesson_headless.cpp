#include "ui/lesson/lesson_headless.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <cstdio>

#include "ui/export/export_save.h"
#include "ui/lesson/lesson_window.h"

namespace fusescope {
namespace {

void printError(const QString& message) {
    std::fprintf(stderr, "fusescope: %s\n", qPrintable(message));
}

}  // namespace

void addLessonOptions(QCommandLineParser& parser) {
    parser.addOptions({
        {QStringLiteral("lesson"),
         QObject::tr("Open a lesson plan (docs/lesson-plans.md) in presenter mode."),
         QStringLiteral("plan")},
        {QStringLiteral("step"), QObject::tr("With --lesson: the step to show, from 1."),
         QStringLiteral("K")},
        {QStringLiteral("answer"),
         QObject::tr("With --lesson and --screenshot: a class's answer, TEXT or TEXT=HANDS "
                     "(repeatable)."),
         QStringLiteral("answer")},
        {QStringLiteral("reveal"),
         QObject::tr("With --lesson and --screenshot: reveal the step's answer.")},
    });
}

std::optional<LessonLaunch> readLessonOptions(const QCommandLineParser& parser, QString* error) {
    if (!parser.isSet(QStringLiteral("lesson"))) {
        for (const char* name : {"step", "answer", "reveal"})
            if (parser.isSet(QString::fromLatin1(name))) {
                *error = QObject::tr("--%1 needs --lesson PLAN").arg(QLatin1String(name));
                return std::nullopt;
            }
        return std::nullopt;
    }
    LessonLaunch launch;
    launch.planPath = parser.value(QStringLiteral("lesson"));
    if (parser.isSet(QStringLiteral("step"))) {
        bool ok = false;
        launch.step = parser.value(QStringLiteral("step")).toInt(&ok);
        if (!ok || launch.step < 1) {
            *error = QObject::tr("--step must be a step number from 1, not '%1'")
                         .arg(parser.value(QStringLiteral("step")));
            return std::nullopt;
        }
    }
    launch.answers = parser.values(QStringLiteral("answer"));
    launch.reveal = parser.isSet(QStringLiteral("reveal"));
    return launch;
}

int renderLessonStep(const LessonLaunch& launch, const QSize& screenPixels,
                     const QString& screenshotPath) {
    QString error;
    std::unique_ptr<LessonDriver> driver = LessonDriver::open(launch.planPath, QString(), &error);
    if (!driver) {
        printError(error);
        return 2;
    }
    if (launch.step > driver->plan().steps.size()) {
        printError(QObject::tr("--step %1: the plan has %2 steps")
                       .arg(launch.step)
                       .arg(driver->plan().steps.size()));
        return 2;
    }
    driver->goTo(launch.step - 1);
    for (const QString& given : launch.answers) {
        const qsizetype equals = given.lastIndexOf(QLatin1Char('='));
        bool ok = equals > 0;
        const int hands = ok ? given.mid(equals + 1).toInt(&ok) : 1;
        const QString answer = ok ? given.left(equals) : given;
        if (const QString refused = driver->addAnswer(answer, ok ? hands : 1); !refused.isEmpty()) {
            printError(QObject::tr("--answer %1: %2").arg(given, refused));
            return 2;
        }
    }
    if (launch.reveal)
        if (const QString refused = driver->reveal(); !refused.isEmpty()) {
            printError(QObject::tr("--reveal: %1").arg(refused));
            return 2;
        }
    LessonWindow window(std::move(driver));
    const qreal ratio = window.devicePixelRatioF() > 0 ? window.devicePixelRatioF() : 1.0;
    window.resize(
        QSize(qRound(screenPixels.width() / ratio), qRound(screenPixels.height() / ratio)));
    window.show();
    QEventLoop loop;
    QTimer::singleShot(100, &loop, &QEventLoop::quit);
    loop.exec();
    QCoreApplication::processEvents();
    if (screenshotPath.isEmpty()) return 0;
    if (const QString failed = saveImageAsPng(window.grab().toImage(), screenshotPath);
        !failed.isEmpty()) {
        printError(failed);
        return 1;
    }
    std::fprintf(stdout, "%s\n", qPrintable(screenshotPath));
    return 0;
}

}  // namespace fusescope
