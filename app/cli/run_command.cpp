// `fusescope-cli run`: runs the variants of one pipeline on a backend, prints a table and writes
// the recording. Every input is checked before anything is allocated; failures are one line.
#include <QCommandLineParser>
#include <cstdio>
#include <cstdlib>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/help_examples.h"
#include "cli/kernel_file_run.h"
#include "cli/results_table.h"
#include "cli/run_options.h"
#include "cli/shared_options.h"
#include "cli/terminal_observer.h"
#include "expr/expression_pipeline.h"
#include "measure/measured_run.h"
#include "model/format.h"
#include "model/lab/learner_run.h"
#include "model/problem_options.h"
#include "model/recording_json.h"
#include "pipelines/runtime_registry.h"
#include "platform/parallel.h"
#include "runtime/backend_selection.h"
#include "runtime/learner_launch.h"
#include "runtime/run_estimate.h"
#include "runtime/runner.h"

namespace fusescope::cli {
namespace {

struct RunOptions {
    RunRequest request;
    std::optional<MeasureOptions> measure;  // set by --measure
    bool nTooLarge = false;                 // N past 64 bits: reported with the device's limit
    QString nText;
    bool repeatsGiven = false;  // otherwise the chosen backend's defaults apply
    bool warmupGiven = false;
    OutputOptions output;  // --description and --json
    QString kernelFile;    // --kernel-file: a learner's kernel, run beside the variants
    bool compileOnly = false;
    double timeLimitSeconds = 10.0;
};

struct RunParser {
    QCommandLineParser parser;
    QCommandLineOption help = helpOption();
    QCommandLineOption pipeline = pipelineOption(QStringLiteral("run"));
    QCommandLineOption expression{
        QStringLiteral("expr"),
        QStringLiteral("Instead of --pipeline: an elementwise chain to run as unfused, fused and "
                       "(with '|') split kernels, e.g. \"out = silu(g) * u\" (see "
                       "`fusescope-cli expr --help`)."),
        QStringLiteral("expression")};
    QCommandLineOption variants = variantsOption(QStringLiteral("run"));
    QCommandLineOption n{QStringLiteral("n"),
                         QStringLiteral("Elementwise pipelines: elements per array, a whole "
                                        "number or 2^k (default 16777216)."),
                         QStringLiteral("N")};
    QCommandLineOption shape{QStringLiteral("shape"),
                             QStringLiteral("Dimensions by name, e.g. M=512,H=1024,I=2816 for "
                                            "the MLP (see below)."),
                             QStringLiteral("dims")};
    QCommandLineOption preset{QStringLiteral("preset"),
                              QStringLiteral("A named problem of the pipeline, e.g. classroom or "
                                             "decode-1 (see below); --shape then changes it."),
                              QStringLiteral("name")};
    QCommandLineOption dtype{QStringLiteral("dtype"),
                             QStringLiteral("Data type: float32 (fp32), bfloat16 (bf16) or tf32 "
                                            "(float32 storage, TF32 tensor-core products), where "
                                            "the pipeline has it."),
                             QStringLiteral("type")};
    QCommandLineOption tile{QStringLiteral("tile"),
                            QStringLiteral("Tuning values by name, e.g. "
                                           "block_m=32,block_n=64,block_h=64,block_i=64, or "
                                           "one kernel's in that order: 32,64,64,64. The "
                                           "production fusion's gate_up kernel takes "
                                           "tile_m,tile_i (e.g. tile_m=64,tile_i=128). MLP tiles "
                                           "other than the default compile at run time (NVRTC)."),
                            QStringLiteral("values")};
    QCommandLineOption repeat{QStringLiteral("repeat"),
                              QStringLiteral("Timed repeats; the time is their median (default "
                                             "20 on a GPU, 5 on the CPU)."),
                              QStringLiteral("count"), QStringLiteral("20")};
    QCommandLineOption warmup{QStringLiteral("warmup"),
                              QStringLiteral("Untimed runs before the repeats (default 3 on a "
                                             "GPU, 1 on the CPU)."),
                              QStringLiteral("count"), QStringLiteral("3")};
    QCommandLineOption vector{QStringLiteral("vector"), vectorWidthHelp(), QStringLiteral("width")};
    QCommandLineOption backend = backendOption();
    QCommandLineOption measure{
        QStringLiteral("measure"),
        QStringLiteral("After the timed run, measure on the GPU: counters (DRAM bytes and sectors "
                       "per kernel, a separate counter run), sampling (DRAM bandwidth over time "
                       "with the kernel and allocation timeline) or all (CUDA only)."),
        QStringLiteral("what")};
    QCommandLineOption sampleInterval{
        QStringLiteral("sample-interval-us"),
        QStringLiteral("With --measure: the PM sampling interval, 10 to 1000 us (default 20)."),
        QStringLiteral("us"), QStringLiteral("20")};
    QCommandLineOption countedLaunches{
        QStringLiteral("counted-launches"),
        QStringLiteral("With --measure counters: how many times each kernel launch is counted, "
                       "1 to %1 (default %2). A tiled kernel's DRAM bytes move from launch to "
                       "launch with what the L2 keeps: the table shows each count's median and, "
                       "where they moved, the range.")
            .arg(kMaxCountedLaunches)
            .arg(kDefaultCountedLaunches),
        QStringLiteral("count"), QString::number(kDefaultCountedLaunches)};
    QCommandLineOption threads{
        QStringLiteral("threads"),
        QStringLiteral("CPU backend: host threads to run on, 1 to every hardware thread, or all "
                       "(default)."),
        QStringLiteral("count"), QStringLiteral("all")};
    QCommandLineOption noRoofs{
        QStringLiteral("no-roofs"),
        QStringLiteral("Do not time the copy roofline and the compute roof (for runs under a "
                       "debugger or compute-sanitizer, where the roof's large GEMM takes hours); "
                       "the recording then has no roofs to compare with.")};
    QCommandLineOption json = jsonOption(QStringLiteral("the recording (JSON)"));
    QCommandLineOption device = deviceOption();
    QCommandLineOption description = descriptionOption();
    QCommandLineOption kernelFile{
        QStringLiteral("kernel-file"),
        QStringLiteral("A learner's kernel (.cu with its buffers in a header comment, as the Lab "
                       "view saves it): compiled by NVRTC, run on the GPU beside the variants of "
                       "the pipeline it names as its reference (or of its expression, for a blank "
                       "kernel), checked against that reference and recorded as \"%1\". With "
                       "--measure counters its DRAM bytes are counted too. --pipeline may be left "
                       "out.")
            .arg(model::learnerVariantName()),
        QStringLiteral("file")};
    QCommandLineOption compileOnly{
        QStringLiteral("compile-only"),
        QStringLiteral("With --kernel-file: compile and print the compiler's messages, run "
                       "nothing (needs no GPU).")};
    QCommandLineOption timeLimit{
        QStringLiteral("time-limit"),
        QStringLiteral("With --kernel-file: seconds one launch of the kernel may take before it "
                       "counts as hung, 1 to 600 (default 10)."),
        QStringLiteral("s"), QStringLiteral("10")};

    RunParser() {
        parser.setApplicationDescription(
            QStringLiteral("Runs the variants of one pipeline, checks every output against the "
                           "CPU reference,\nprints a table and optionally writes a recording that "
                           "the FuseScope window opens."));
        parser.addOptions({help,        pipeline,       expression,      variants, n,
                           shape,       preset,         dtype,           tile,     repeat,
                           warmup,      vector,         backend,         device,   threads,
                           measure,     sampleInterval, countedLaunches, noRoofs,  json,
                           description, kernelFile,     compileOnly,     timeLimit});
    }

    QString helpText() const {
        QString text = parser.helpText();
        // Qt's usage line names the executable's path; show the command instead.
        text.replace(
            0, text.indexOf(QLatin1Char('\n')),
            QStringLiteral("Usage: fusescope-cli run --pipeline <name> | --expr <expression> "
                           "[options]"));
        // The issue spells the size option --n; Qt shows one-letter options as -n (both work).
        text.replace(QStringLiteral("  -n <N> "), QStringLiteral("  --n <N>"));
        text += QStringLiteral("\nWhat each pipeline takes (from its declaration):\n");
        for (const PipelineSpec& spec : pipelines()) {
            text += QStringLiteral("  %1:\n").arg(QString::fromStdString(spec.name));
            for (const QString& line : model::problemHelpLines(spec))
                text += QStringLiteral("    %1\n").arg(line);
        }
        return text +
               QStringLiteral("\nExamples:\n  %1\n  %2\n\n")
                   .arg(elementwiseRunExample(), presetRunExamples()) +
               exitCodeHelp();
    }
};

// --expr: the chain registered as a pipeline family for this run (and its recording).
Result<const PipelineSpec*> registerExpressionOption(const QString& text) {
    Result<const PipelineSpec*> registered = expr::registerExpression(text.toStdString());
    if (!registered)
        return Status(ErrorCode::InvalidArgument,
                      "--expr: the expression does not parse, " + registered.status().message());
    return registered;
}

// Every value is checked here, before a backend exists or anything is allocated.
// `pipelineName`: --pipeline, or the reference of --kernel-file.
Result<RunOptions> parseRunOptions(const RunParser& p, const QString& pipelineName) {
    RunOptions options;
    RunRequest& request = options.request;
    if (Status bare = checkNoPositionalArguments(p.parser); !bare) return bare;
    const bool fromExpression = p.parser.isSet(p.expression);
    if (fromExpression && p.parser.isSet(p.pipeline))
        return Status(ErrorCode::InvalidArgument, "give --pipeline or --expr, not both");
    const Result<const PipelineSpec*> pipeline =
        choosePipeline(request,
                       fromExpression ? registerExpressionOption(p.parser.value(p.expression))
                                      : parsePipeline(pipelineName),
                       p.parser.value(p.variants));
    if (!pipeline) return pipeline.status();

    // The problem: preset, then --shape, --n, --dtype, --vector and --tile, checked against the
    // pipeline's declarations.
    model::ProblemText problemText;
    problemText.preset = p.parser.value(p.preset);
    problemText.dimensions = p.parser.value(p.shape);
    problemText.dtype = p.parser.value(p.dtype);
    problemText.tuning = p.parser.value(p.tile);
    if (p.parser.isSet(p.n)) {
        if (!(*pipeline)->findDimension(kElementCountDimension))
            return Status(ErrorCode::InvalidArgument,
                          "--n: pipeline " + (*pipeline)->name +
                              " has no N; give its dimensions with --shape or --preset");
        options.nText = p.parser.value(p.n);
        Result<ElementCountOption> n =
            parseElementCountOption(QStringLiteral("--n"), options.nText);
        if (!n) return n.status();
        options.nTooLarge = n->tooLarge;
        if (!n->tooLarge)
            problemText.dimensions += QStringLiteral(",%1=%2")
                                          .arg(QLatin1String(kElementCountDimension.data()))
                                          .arg(n->value);
    }
    if (p.parser.isSet(p.vector)) {
        if (!(*pipeline)->findTuning(kVectorWidthTuning))
            return Status(ErrorCode::InvalidArgument,
                          "--vector: pipeline " + (*pipeline)->name + " has no vector width");
        Result<int> vector = parseVectorWidth(p.parser.value(p.vector));
        if (!vector) return vector.status();
        problemText.tuning +=
            QStringLiteral(",%1=%2").arg(QLatin1String(kVectorWidthTuning.data())).arg(*vector);
    }
    if (!options.nTooLarge) {
        Result<Problem> problem = model::problemFromText(**pipeline, problemText);
        if (!problem) return problem.status();
        request.problem = *problem;
    }
    if (Status s = storeParsed(parseRunSettings(p.parser, p.repeat, p.warmup), request.settings);
        !s)
        return s;
    request.roofs = !p.parser.isSet(p.noRoofs);
    options.repeatsGiven = p.parser.isSet(p.repeat);
    options.warmupGiven = p.parser.isSet(p.warmup);

    if (Status s = storeParsed(parseTarget(p.parser, p.backend, p.device), request.target); !s)
        return s;
    if (const QString threads = p.parser.value(p.threads); threads != QLatin1String("all")) {
        Result<int> count =
            parseBoundedInteger(QStringLiteral("--threads"), threads, 1, hardwareThreads());
        if (!count) return count.status();
        request.cpuThreads = *count;
    }

    MeasureOptions measure;
    if (p.parser.isSet(p.measure)) {
        const QString what = p.parser.value(p.measure);
        if (what != QLatin1String("all") && what != QLatin1String("counters") &&
            what != QLatin1String("sampling"))
            return Status(ErrorCode::InvalidArgument,
                          "--measure " + what.toStdString() + ": say counters, sampling or all");
        measure.counters = what != QLatin1String("sampling");
        measure.sampling = what != QLatin1String("counters");
    }
    Result<int> intervalUs = parseBoundedInteger(QStringLiteral("--sample-interval-us"),
                                                 p.parser.value(p.sampleInterval), 10, 1000);
    if (!intervalUs) return intervalUs.status();
    measure.samplingIntervalNs = std::int64_t{*intervalUs} * 1000;
    Result<int> counted =
        parseBoundedInteger(QStringLiteral("--counted-launches"), p.parser.value(p.countedLaunches),
                            1, kMaxCountedLaunches);
    if (!counted) return counted.status();
    measure.countedLaunches = *counted;
    if (p.parser.isSet(p.measure)) options.measure = measure;

    options.kernelFile = p.parser.value(p.kernelFile);
    options.compileOnly = p.parser.isSet(p.compileOnly);
    if (options.compileOnly && options.kernelFile.isEmpty())
        return Status(ErrorCode::InvalidArgument, "--compile-only: give the --kernel-file");
    Result<int> timeLimit =
        parseBoundedInteger(QStringLiteral("--time-limit"), p.parser.value(p.timeLimit), 1, 600);
    if (!timeLimit) return timeLimit.status();
    options.timeLimitSeconds = *timeLimit;
    if (Status s = storeParsed(
            parseOutputOptions(p.parser, p.description, p.json, QStringLiteral("the recording")),
            options.output);
        !s)
        return s;
    return options;
}

// N against what the chosen device holds (the runner's own check), before anything runs.
Status checkSizeFits(const RunOptions& options, const DeviceInfo& device) {
    if (options.nTooLarge) {
        RunRequest smallest = options.request;
        const PipelineSpec& pipeline = *findPipeline(smallest.pipeline);
        smallest.problem = pipeline.defaultProblem();
        return Status(ErrorCode::OutOfMemory,
                      "--n " + options.nText.toStdString() + " is too large: at most " +
                          std::to_string(maxSizeFor(smallest, device)) + " elements fit on " +
                          device.name + " with the free memory");
    }
    return validateRequest(options.request, device);
}

// The run's estimated time on this CPU, from the model's FLOPs and bytes at speeds measured
// here just now (a quarter of a second), so that a GPU-sized shape is not started unannounced.
QString cpuEstimateLine(Backend& backend, const RunRequest& request) {
    const Result<MachineSpeeds> speeds = measureSpeeds(backend, request.cpuThreads);
    if (!speeds)
        return QStringLiteral("no estimate of the run's time: %1")
            .arg(QString::fromStdString(speeds.status().message()));
    return QStringLiteral(
               "estimated %1 on this CPU (the model's FLOPs and bytes at %2 GFLOP/s and %3 "
               "GB/s "
               "measured here)")
        .arg(QString::fromStdString(describeDuration(estimateRunSeconds(request, *speeds))))
        .arg(speeds->flopsPerSecond * 1e-9, 0, 'f', 1)
        .arg(speeds->bytesPerSecond * 1e-9, 0, 'f', 1);
}

QString runningLine(const RunRequest& request, const DeviceInfo& device) {
    const PipelineSpec& pipeline = *findPipeline(request.pipeline);
    const std::size_t variants =
        request.variants.empty() ? runnableVariants(pipeline).size() : request.variants.size();
    return QStringLiteral(
               "running %1 (%2 variant%3, %4) on the %5 backend (%6); Ctrl-C "
               "cancels")
        .arg(QString::fromStdString(pipeline.name))
        .arg(variants)
        .arg(variants == 1 ? "" : "s")
        .arg(QString::fromStdString(describeProblem(pipeline, request.problem, request.variants)))
        .arg(QString::fromLatin1(backendName(device.backend)))
        .arg(QString::fromStdString(device.name));
}

}  // namespace

int runCommand(const QStringList& arguments) {
    RunParser p;
    if (std::optional<int> done =
            parseCommandLine(p.parser, p.help, arguments, [&p] { return p.helpText(); }))
        return *done;
    // A kernel file is read and compiled first: it names the pipeline, and a compile error
    // runs nothing.
    std::optional<KernelFile> kernelFile;
    QString pipelineName = p.parser.value(p.pipeline);
    if (p.parser.isSet(p.kernelFile)) {
        Result<KernelFile> compiled = compileKernelFile(p.parser.value(p.kernelFile));
        if (!compiled) {
            printError(QString::fromStdString(compiled.status().message()));
            return exitCodeFor(compiled.status());
        }
        kernelFile = std::move(*compiled);
        if (pipelineName.isEmpty())
            pipelineName = QString::fromStdString(kernelFile->reference->name);
    }
    Result<RunOptions> options = parseRunOptions(p, pipelineName);
    if (!options) {
        printError(QString::fromStdString(options.status().message()));
        return kExitUsageError;
    }
    if (kernelFile && options->compileOnly) {
        printNote(QStringLiteral("%1 compiled (%2); nothing run (--compile-only)")
                      .arg(options->kernelFile, QString::fromStdString(learnerArchitecture())));
        return kExitOk;
    }
    if (kernelFile && pipelineName.toStdString() != kernelFile->reference->name) {
        printError(QStringLiteral("--pipeline %1: the kernel file's reference is %2")
                       .arg(pipelineName, QString::fromStdString(kernelFile->reference->name)));
        return kExitUsageError;
    }
    if (kernelFile && options->request.target.backend == BackendChoice::Cpu) {
        printError(
            QStringLiteral("--kernel-file: a learner's kernel runs on the GPU (--backend "
                           "cuda or auto)"));
        return kExitUsageError;
    }

    BackendSet backends;
    const std::optional<BackendSelection> selection =
        startBackendOrSayWhy(options->request.target, backends);
    if (!selection) return kExitRuntimeError;
    Backend& backend = *selection->backend;
    if (kernelFile && backend.kind() != BackendKind::Cuda) {
        printError(
            QStringLiteral("--kernel-file: running a learner's kernel needs a GPU; none is "
                           "usable here (--compile-only still compiles it)"));
        return kExitRuntimeError;
    }
    RunRequest& request = options->request;
    const RunSettings defaults = runDefaultsFor(backend.kind());
    if (!options->repeatsGiven) request.settings.repeats = defaults.repeats;
    if (!options->warmupGiven) request.settings.warmup = defaults.warmup;
    backend.useHostThreads(request.cpuThreads);
    const DeviceInfo device = backend.describe();
    if (Status fits = checkSizeFits(*options, device); !fits) {
        printError(QString::fromStdString(fits.message()));
        return kExitUsageError;
    }
    if (!selection->autoNote.empty()) printNote(QString::fromStdString(selection->autoNote));
    if (backend.kind() == BackendKind::Cpu) printNote(cpuEstimateLine(backend, request));

    Result<RunReport> report = Status(ErrorCode::Cancelled, "not run");
    // Counters need the CUDA backend; elsewhere the provider refuses in words and the run carries
    // on with timing plus model (the header says why).
    std::unique_ptr<CounterProvider> provider =
        options->measure ? createCounterProvider() : nullptr;
    {
        InterruptGuard interruptGuard;
        printNote(runningLine(options->request, device));
        TerminalObserver observer;
        if (provider) {
            report = runMeasured(backend, *provider, options->request, *options->measure, observer);
        } else {
            report = runPipeline(backend, options->request, observer);
        }
        observer.finish();
    }
    int failure = kExitOk;
    std::optional<model::Recording> made = recordingOfRun(report, failure);
    if (!made) return failure;
    model::Recording recording = *made;
    recording.description = options->output.description;
    if (kernelFile) {
        LearnerRunSettings learner;
        learner.problem = request.problem;
        learner.settings = request.settings;
        learner.timeLimitSeconds = options->timeLimitSeconds;
        if (provider && options->measure->counters) {
            learner.counters = provider.get();
            learner.backend = &backend;
        }
        InterruptGuard interruptGuard;
        bool kernelLeftRunning = false;
        if (Status ran = appendLearnerRun(*kernelFile, learner, recording, kernelLeftRunning);
            !ran) {
            printError(QString::fromStdString(ran.message()));
            // The GPU still runs the learner's kernel: every free, and the CUDA runtime's own
            // clean-up at exit, would wait for it forever. The driver reclaims the context.
            if (kernelLeftRunning) {
                std::fflush(stdout);
                std::fflush(stderr);
                std::_Exit(exitCodeFor(ran));
            }
            return exitCodeFor(ran);
        }
    }
    printOut(renderResults(recording));

    if (!options->output.jsonPath.isEmpty()) {
        if (Status saved = model::saveRecording(recording, options->output.jsonPath); !saved) {
            printError(QString::fromStdString(saved.message()));
            return kExitRuntimeError;
        }
        printNote(QStringLiteral("recording written to %1").arg(options->output.jsonPath));
    }
    for (const model::VariantResult& run : recording.runs)
        if (!run.check.ok) return kExitCheckFailed;
    return kExitOk;
}

}  // namespace fusescope::cli
