// `fusescope-cli lesson check FILE`: checks a lesson plan before class. It validates the plan,
// says which steps run live on this machine and which open their shipped recordings, and runs
// each live step once, quickly (one repeat, no warm-up, no roofs), with its question's answer.
#include <QCommandLineParser>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/kernel_file_run.h"
#include "cli/run_options.h"
#include "cli/shared_options.h"
#include "cli/terminal_observer.h"
#include "model/lesson/lesson_reveal.h"
#include "model/lesson/lesson_source.h"
#include "model/lesson/lesson_tile_limit.h"
#include "model/recording_catalog.h"
#include "runtime/backend_selection.h"

namespace fusescope::cli {
namespace {

QString lessonHelp() {
    return QStringLiteral(
               "Usage: fusescope-cli lesson check <plan.lesson.md> [--backend auto|cuda|cpu] "
               "[--no-run]\n"
               "Checks a lesson plan before class (docs/lesson-plans.md): every field, "
               "pipeline, variant and\nrecording, with the line of each problem; which steps run "
               "live on this machine and which\nopen their shipped recordings; then runs each "
               "live step once, quickly, and prints its answer.\n\n"
               "Options:\n"
               "  --backend <name>  auto (default: CUDA when a GPU is usable, else the CPU), "
               "cuda or cpu\n"
               "  --no-run          check the plan and say where each step's numbers come from, "
               "run nothing\n\n") +
           exitCodeHelp();
}

// One live step run once; 0 when its outputs were right, else the exit code.
int runStepOnce(Backend& backend, const model::LessonStep& planned) {
    Result<model::LessonStep> live = model::liveStep(planned);
    if (!live) {
        printError(QString::fromStdString(live.status().message()));
        return kExitUsageError;
    }
    const model::LessonStep& step = *live;
    Result<RunRequest> request = model::stepRunRequest(step, backend.kind(), true);
    if (!request) {
        printError(QString::fromStdString(request.status().message()));
        return kExitUsageError;
    }
    Result<RunReport> report = Status(ErrorCode::Cancelled, "not run");
    {
        InterruptGuard interruptGuard;
        TerminalObserver observer;
        report = runPipeline(backend, *request, observer);
        observer.finish();
    }
    int failure = kExitOk;
    const std::optional<model::Recording> made = recordingOfRun(report, failure);
    if (!made) return failure;
    const model::Recording& recording = *made;
    QStringList times;
    bool allRight = true;
    for (const model::VariantResult& run : recording.runs) {
        times << QStringLiteral("%1 %2 ms%3")
                     .arg(model::toQString(run.variant))
                     .arg(run.timeMs, 0, 'g', 3)
                     .arg(run.check.ok ? QString() : QStringLiteral(" (output WRONG)"));
        allRight = allRight && run.check.ok;
    }
    printOut(QStringLiteral("    ran once: %1").arg(times.join(QStringLiteral(", "))));
    if (step.question) {
        Result<model::MeasuredAnswer> answer = model::measureAnswer(step, recording);
        if (!answer) {
            printError(QString::fromStdString(answer.status().message()));
            return kExitRuntimeError;
        }
        printOut(QStringLiteral("    answer: %1").arg(answer->text));
    }
    return allRight ? kExitOk : kExitCheckFailed;
}

// A limit question's answer, from the tile sweep the step names; 0 when it has one.
int printTileLimit(const model::LessonStep& step) {
    const Result<model::MeasuredAnswer> limit = model::measureTileLimit(step);
    if (!limit) {
        printError(QString::fromStdString(limit.status().message()));
        return kExitUsageError;
    }
    printOut(QStringLiteral("    answer: %1 (%2)").arg(limit->text, limit->source));
    return kExitOk;
}

// A step's learner kernel, compiled as the Lab's Build does; the Lab runs it in class.
int compileStepKernel(const model::LessonStep& step) {
    const Result<KernelFile> file = compileKernelFile(step.show.kernelPath);
    if (!file) {
        printError(QString::fromStdString(file.status().message()));
        return kExitUsageError;
    }
    printOut(QStringLiteral("    compiled %1; the Lab runs it in class").arg(file->kernel.entry));
    return kExitOk;
}

int checkLesson(const QString& path, BackendChoice choice, bool run) {
    const model::LessonParse parse = model::loadLessonPlan(path, model::shippedRecordingFolders());
    if (!parse.errors.isEmpty()) {
        printError(parse.errorText());
        return kExitUsageError;
    }
    BackendSet backends;
    Result<BackendSelection> selection = startBackend(Target{choice, std::nullopt}, backends);
    if (!selection) {
        printError(QString::fromStdString(selection.status().message()));
        return kExitRuntimeError;
    }
    Backend& backend = *selection->backend;
    const bool gpu = backend.kind() == BackendKind::Cuda;
    printOut(QStringLiteral("%1: %2 steps, valid; on %3:")
                 .arg(path)
                 .arg(parse.plan.steps.size())
                 .arg(QString::fromStdString(backend.describe().name)));
    int exitCode = kExitOk;
    for (qsizetype index = 0; index < parse.plan.steps.size(); ++index) {
        const model::LessonStep& step = parse.plan.steps[index];
        const model::StepSource source = model::chooseStepSource(step, gpu);
        printOut(QStringLiteral("  %1. %2: %3").arg(index + 1).arg(step.title, source.words));
        if (step.question && step.question->kind == model::QuestionKind::Limit)
            if (const int limitCode = printTileLimit(step); limitCode != kExitOk)
                exitCode = limitCode;
        if (source.kernelRuns && run)
            if (const int kernelCode = compileStepKernel(step); kernelCode != kExitOk)
                exitCode = kernelCode;
        if (!source.live || !run) continue;
        const int stepCode = runStepOnce(backend, step);
        if (stepCode == kExitCancelled) return stepCode;
        if (stepCode != kExitOk) exitCode = stepCode;
    }
    return exitCode;
}

}  // namespace

int lessonCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    const QCommandLineOption help = helpOption();
    const QCommandLineOption backend(QStringLiteral("backend"), QStringLiteral("auto, cuda or cpu"),
                                     QStringLiteral("name"), QStringLiteral("auto"));
    const QCommandLineOption noRun(QStringLiteral("no-run"), QStringLiteral("Run nothing."));
    parser.addOptions({help, backend, noRun});
    if (std::optional<int> done = parseCommandLine(parser, help, arguments, lessonHelp))
        return *done;
    const QStringList words = parser.positionalArguments();
    if (words.isEmpty() || words.constFirst() != QLatin1String("check")) {
        printError(QStringLiteral("lesson needs a subcommand: fusescope-cli lesson check FILE"));
        return kExitUsageError;
    }
    if (words.size() != 2) {
        printError(
            words.size() < 2
                ? QStringLiteral("lesson check needs a plan file")
                : QStringLiteral("lesson check takes one plan file, got %1").arg(words.size() - 1));
        return kExitUsageError;
    }
    Result<BackendChoice> choice = parseBackendChoice(parser.value(backend));
    if (!choice) {
        printError(QString::fromStdString(choice.status().message()));
        return kExitUsageError;
    }
    return checkLesson(words[1], *choice, !parser.isSet(noRun));
}

}  // namespace fusescope::cli
