#include <gtest/gtest.h>

#include <QRegularExpression>

#include "cli/results_table.h"
#include "cli/text_table.h"
#include "model/format.h"
#include "model/measured_counts.h"
#include "model/recording_json.h"
#include "pipelines/traffic_bounds.h"

using namespace fusescope;
using namespace fusescope::model;
using namespace fusescope::cli;

namespace {

Recording twoRuns() {
    Recording recording;
    recording.device.backend = fusescope::BackendKind::Cuda;
    recording.device.name = "NVIDIA H200";
    recording.roofline.timeMs = 0.5;
    recording.roofline.bytesMoved = 2147483648ull;
    for (const char* variant : {"scratch", "fused"}) {
        VariantResult run;
        run.pipeline = "swiglu";
        run.variant = variant;
        run.problem.dimensions["N"] = 268435456;
        run.problem.tuning["vector"] = 4;
        run.check.measure = "max relative error";
        run.check.tolerance = 1e-5;
        run.outputElements = run.problem.dimension("N");
        run.backend = BackendKind::Cuda;
        run.passes = run.variant == "scratch" ? 5 : 3;
        run.modelBytesRead = 4 * run.problem.dimension("N") * (run.passes - 1);
        run.modelBytesWritten = 4 * run.problem.dimension("N");
        run.timeMs = run.variant == "scratch" ? 1.25 : 0.75;
        run.repeatTimesMs = {run.timeMs};
        run.peakBytesInFlight = 4 * run.problem.dimension("N") * (run.variant == "scratch" ? 4 : 3);
        run.check.ok = true;
        run.kernels.resize(1);
        recording.runs.push_back(run);
    }
    return recording;
}

}  // namespace

TEST(ResultsTable, HeaderNamesDeviceSizeVectorRooflineAndSource) {
    const QStringList header = resultsHeader(twoRuns());
    const QString text = header.join('\n');
    EXPECT_TRUE(text.contains("swiglu · SwiGLU activation · out = silu(gate) * up"))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains("NVIDIA H200 · N = 268,435,456 · float32 · vector 4 · timing + model"))
        << text.toStdString();
    EXPECT_TRUE(text.contains("backend cuda · copy roofline " + formatGBps(4294.967296) +
                              " GB/s (2.15 GB in 500 µs)"))
        << text.toStdString();
}

TEST(ResultsTable, HeaderSaysWhichVariantsWereNotRunAndWhy) {
    Recording recording = twoRuns();
    recording.variantsNotRun = {{"fused", "fused cannot run here: no code for it"}};
    const QStringList header = resultsHeader(recording);
    EXPECT_TRUE(header.contains("not run: fused cannot run here: no code for it"))
        << header.join('\n').toStdString();
    EXPECT_FALSE(resultsHeader(twoRuns()).join('\n').contains("not run"));
}

TEST(ResultsTable, HeaderNamesTheComputeRoofWhereOneWasTimed) {
    Recording recording = twoRuns();
    EXPECT_FALSE(resultsHeader(recording).join('\n').contains("compute roof"));
    ComputeRoofResult roof;
    roof.timeMs = 2.0;
    roof.flops = 1.7e12;  // 850 TFLOP/s
    roof.description = "cuBLAS bfloat16 GEMM 8192^3";
    recording.computeRoof = roof;
    const QString text = resultsHeader(recording).join('\n');
    EXPECT_TRUE(text.contains("compute roof 850 TFLOP/s (cuBLAS bfloat16 GEMM 8192^3 in 2.00 ms)"))
        << text.toStdString();
}

TEST(ResultsTable, FailedCheckShowsTheErrorAndUnwrittenCount) {
    Recording recording = twoRuns();
    recording.runs[1].check.ok = false;
    recording.runs[1].check.error = 0.25;
    recording.runs[1].check.unwrittenElements = 1024;
    const QString text = renderResults(recording);
    const QStringList rows = resultsRows(recording);
    ASSERT_EQ(rows.size(), 4);  // header, rule, two runs
    EXPECT_TRUE(rows[2].endsWith("  OK")) << rows[2].toStdString();
    EXPECT_TRUE(rows[3].endsWith("  FAIL (1,024 unwritten)")) << rows[3].toStdString();
    EXPECT_TRUE(rows[3].contains("  2.5e-01  ")) << rows[3].toStdString();
    EXPECT_TRUE(
        text.contains("check FAILED for fused: max relative error 2.5e-01 (tolerance 1.0e-05), "
                      "1,024 of 268,435,456 output elements never written"))
        << text.toStdString();
}

TEST(ResultsTable, FailedCheckNamesTheWrongOutputAndElement) {
    Recording recording = twoRuns();
    VariantResult& run = recording.runs[1];
    run.check.ok = false;
    run.check.error = 0.25;
    run.check.wrongOutput = "out2";
    run.check.wrongElement = {1717, 4.5, 5.5, false};
    EXPECT_TRUE(renderResults(recording).contains(
        "(tolerance 1.0e-05); out2[1,717] holds 5.5 where 4.5 was expected"))
        << renderResults(recording).toStdString();
    run.check.wrongElement = {42, 4.5, 0.0, true};
    EXPECT_TRUE(renderResults(recording).contains("; out2[42] was never written"))
        << renderResults(recording).toStdString();
}

TEST(ResultsTable, ColumnsLineUpAndShowPercentOfRoofline) {
    const QStringList rows = resultsRows(twoRuns());
    // Every line of the table is as wide as the rule (right-aligned numbers, no ragged edge
    // before the last, left-aligned column).
    const qsizetype checkColumn = rows[0].indexOf("check");
    for (const QString& row : rows.mid(2)) EXPECT_EQ(row.indexOf("OK"), checkColumn);
    const QStringList fused = rows[3].split(QRegularExpression("\\s{2,}"));
    ASSERT_EQ(fused.size(), 12);
    // Nothing measured: the DRAM column is the model's distinct bytes, said in its header.
    EXPECT_TRUE(rows[0].contains("DRAM bytes (model)")) << rows[0].toStdString();
    const double fusedGBps = (4.0 * 268435456 * 3) / (0.75 * 1e6);
    EXPECT_EQ(fused[4], formatBytes(4ull * 268435456 * 3));
    EXPECT_EQ(fused[6], formatGBps(fusedGBps));
    // The runs recorded no FLOPs; the useful ones are the reference variant's, by the registry.
    const std::optional<double> useful =
        usefulFlops(*findPipeline("swiglu"), twoRuns().runs[1].problem);
    ASSERT_TRUE(useful);
    EXPECT_EQ(fused[7], QString::number(*useful / (0.75 * 1e9), 'g', 3));
    EXPECT_EQ(fused[8], formatPercent(fusedGBps / (2147483648.0 / (0.5 * 1e6))));
}

TEST(TextTable, AlignsAndTrimsTrailingSpace) {
    TextTable table;
    table.addColumn("name", TextTable::Align::Left);
    table.addColumn("value", TextTable::Align::Right);
    table.addRow({"a", "1"});
    table.addRow({"longer", "12345"});
    const QStringList lines = table.render("  ");
    ASSERT_EQ(lines.size(), 4);
    EXPECT_EQ(lines[0], "  name    value");
    EXPECT_EQ(lines[1], "  -------------");
    EXPECT_EQ(lines[2], "  a           1");
    EXPECT_EQ(lines[3], "  longer  12345");
}

TEST(ResultsTable, ChainsThatOverlapSayByHowMuch) {
    Recording recording = twoRuns();
    for (VariantResult& run : recording.runs) run.kernelsApartTimeMs = run.timeMs;
    EXPECT_TRUE(chainOverlapLines(recording).isEmpty());
    VariantResult& chain = recording.runs.front();
    chain.kernels.resize(2);
    chain.timeMs = 0.0888;
    chain.kernelsApartTimeMs = 0.0944;
    const QStringList lines = chainOverlapLines(recording);
    ASSERT_EQ(lines.size(), 1);
    EXPECT_TRUE(lines.front().startsWith(QStringLiteral("scratch: ")))
        << lines.front().toStdString();
    EXPECT_TRUE(lines.front().contains(formatDuration(0.0888))) << lines.front().toStdString();
    EXPECT_TRUE(lines.front().contains(QStringLiteral("overlap by %1").arg(formatDuration(0.0056))))
        << lines.front().toStdString();
    // Within a percent it is noise: nothing is said.
    chain.kernelsApartTimeMs = 0.0890;
    EXPECT_TRUE(chainOverlapLines(recording).isEmpty());
}

// A kernel counted over several launches: the header says the counts are medians, and a DRAM
// count that moved shows its range.
TEST(ResultsTable, CountsThatMovedBetweenLaunchesShowTheirRange) {
    Recording recording = twoRuns();
    for (VariantResult& run : recording.runs) {
        run.kernels[0].name = run.variant == "scratch" ? "swiglu_scratch" : "swiglu_fused";
        run.kernels[0].modelBytesRead = run.modelBytesRead;
        run.kernels[0].modelBytesWritten = run.modelBytesWritten;
        KernelCounters counters;
        counters.dramBytesRead = double(run.modelBytesRead);
        counters.dramBytesWritten = double(run.modelBytesWritten);
        counters.countedLaunches = 3;
        counters.dramReadSpread = CountSpread{counters.dramBytesRead, counters.dramBytesRead};
        counters.dramWrittenSpread =
            CountSpread{counters.dramBytesWritten, counters.dramBytesWritten};
        run.kernels[0].counters = counters;
        run.countersSource = MeasurementSource::Counters;
    }
    KernelCounters& moved = *recording.runs[1].kernels[0].counters;
    moved.dramReadSpread = CountSpread{0.8 * moved.dramBytesRead, 1.5 * moved.dramBytesRead};
    const QString text = measurementRows(recording).join('\n');
    EXPECT_TRUE(text.contains("each count the median of 3 launches")) << text.toStdString();
    const auto bytes = [](double value) { return formatBytes(quint64(value + 0.5)); };
    EXPECT_TRUE(text.contains(QStringLiteral("%1 (%2–%3)")
                                  .arg(bytes(moved.dramBytesRead), bytes(moved.dramReadSpread->low),
                                       bytes(moved.dramReadSpread->high))))
        << text.toStdString();
    // The counts that held still show their median alone.
    EXPECT_EQ(text.count(QStringLiteral("–")), 1) << text.toStdString();
}

// The shipped H200 prefill recording: each column says its source, and the lesson kernel's row
// shows DRAM bytes, the rate of the useful FLOPs and the executed one beside it.
TEST(ResultsTable, ShippedPrefillColumnsSayTheirSource) {
    Result<Recording> loaded = loadRecording(
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-prefill-4096-bf16.fusescope.json"));
    ASSERT_TRUE(loaded) << loaded.status().message();
    const Recording& recording = *loaded;
    const QStringList rows = resultsRows(recording);
    const QStringList header = rows[0].trimmed().split(QRegularExpression("\\s{2,}"));
    const QStringList expected = {"variant",
                                  "kernels",
                                  "passes",
                                  "requested bytes",
                                  "DRAM bytes (measured)",
                                  "time (ms)",
                                  "DRAM GB/s",
                                  "useful TFLOP/s",
                                  "executed TFLOP/s",
                                  "% of copy roofline (DRAM)",
                                  "peak in flight",
                                  "error",
                                  "check"};
    ASSERT_EQ(header.join(" | ").toStdString(), expected.join(" | ").toStdString());

    const VariantResult* lesson = nullptr;
    const VariantResult* unfused = nullptr;
    for (const VariantResult& run : recording.runs) {
        if (run.variant == "lesson_fused") lesson = &run;
        if (run.variant == "unfused") unfused = &run;
    }
    ASSERT_TRUE(lesson);
    ASSERT_TRUE(unfused);
    QStringList cells;
    for (const QString& row : rows)
        if (row.startsWith("lesson_fused ")) cells = row.split(QRegularExpression("\\s{2,}"));
    ASSERT_EQ(cells.size(), expected.size());
    double dram = 0.0;
    for (const KernelResult& kernel : lesson->kernels)
        dram += *model::measured(kernel, &KernelCounters::dramBytesRead) +
                *model::measured(kernel, &KernelCounters::dramBytesWritten);
    const double requested = double(lesson->modelBytesRead + lesson->modelBytesWritten);
    EXPECT_EQ(cells[3], formatBytes(quint64(requested)));
    EXPECT_EQ(cells[4], formatBytes(quint64(dram)));
    EXPECT_EQ(cells[6], formatGBps(dram / (lesson->timeMs * 1e6)));
    EXPECT_NE(cells[6], formatGBps(requested / (lesson->timeMs * 1e6)));
    double fiveKernelFlops = 0.0;
    for (const VariantResult& run : recording.runs)
        if (run.variant == "unfused") fiveKernelFlops = run.modelFlops;
    EXPECT_EQ(cells[7], QString::number(fiveKernelFlops / (lesson->timeMs * 1e9), 'g', 3));
    EXPECT_EQ(cells[8], QString::number(lesson->modelFlops / (lesson->timeMs * 1e9), 'g', 3));
    EXPECT_EQ(cells[9], formatPercent(dram / (lesson->timeMs * 1e6) / recording.roofline.gbps()));

    // Under the table: what the columns count, the requests served on chip, and the verdict.
    const QString text = renderResults(recording);
    EXPECT_TRUE(text.contains(QStringLiteral("lesson_fused: %1 requested, %2 from DRAM: %3 "
                                             "re-read from L1/L2")
                                  .arg(formatBytes(quint64(requested)), formatBytes(quint64(dram)),
                                       formatBytes(quint64(requested - dram)))))
        << text.toStdString();
    const QString slower = QString::number(lesson->timeMs / unfused->timeMs, 'f', 0);
    EXPECT_TRUE(text.contains("lesson_fused is " + slower + "x slower than unfused"))
        << text.toStdString();
}

// Without counters (as on a CPU run) the rate column divides the model's DRAM bytes: its title
// and the roofline share say "model", not "DRAM" as if measured.
TEST(ResultsTable, RateColumnTitleSaysModelWithoutCounters) {
    Result<Recording> loaded = loadRecording(
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-prefill-4096-bf16.fusescope.json"));
    ASSERT_TRUE(loaded) << loaded.status().message();
    Recording recording = *loaded;
    for (VariantResult& run : recording.runs)
        for (KernelResult& kernel : run.kernels) kernel.counters.reset();
    const QStringList header =
        resultsRows(recording)[0].trimmed().split(QRegularExpression("\\s{2,}"));
    EXPECT_TRUE(header.contains(QStringLiteral("model GB/s"))) << header.join(" | ").toStdString();
    EXPECT_FALSE(header.contains(QStringLiteral("DRAM GB/s"))) << header.join(" | ").toStdString();
    EXPECT_TRUE(header.contains(QStringLiteral("% of copy roofline (model)")))
        << header.join(" | ").toStdString();
}
