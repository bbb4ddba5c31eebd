// The worker after a GPU fails: an out-of-memory the pre-check could not see, a launch that breaks
// the GPU context (an illegal address), and a GPU that is gone when the worker tries to reset it.
// Each failure is reported in words and the program stays usable. The stand-in GPU (the CPU
// backend saying it is CUDA) runs everywhere; the same checks on a real GPU skip without one.
#include <QScopeGuard>
#include <QSignalSpy>
#include <QtTest>
#include <atomic>
#include <memory>

#include "fakes/forwarding_backend.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "worker/run_worker.h"
#include "worker_on_thread.h"

using namespace fusescope;

namespace {

constexpr int kRunTimeoutMs = 120000;
constexpr std::uint64_t kMiB = 1ull << 20;

// What the test makes go wrong, and what the backends saw; shared with the worker thread.
struct Faults {
    std::atomic<bool> breakNextLaunch{false};
    std::atomic<bool> goneOnReset{false};    // stand-in only: the reset finds no GPU
    std::atomic<std::uint64_t> hogBytes{0};  // held from opening on: what is free shrinks
    std::atomic<std::uint64_t> allocationLimit{~0ull};  // stand-in only: larger fails
    // Stand-in only: the context state, which a reset clears.
    std::atomic<bool> broken{false};
    std::atomic<bool> gone{false};
    std::atomic<int> opened{0};
    std::atomic<int> resets{0};
    std::atomic<int> allocations{0};
    std::atomic<int> releases{0};
};

// A backend that forwards to another one and injects the faults. Over the CPU backend it says it
// is CUDA and plays the GPU's errors; over a real GPU it makes them happen there.
class FaultyGpu final : public testing_support::ForwardingBackend {
  public:
    FaultyGpu(std::unique_ptr<Backend> gpu, Faults& faults)
        : ForwardingBackend(std::move(gpu)),
          faults_(faults),
          standIn_(inner().kind() != BackendKind::Cuda) {
        if (faults_.hogBytes > 0) {
            Result<void*> hog = inner().allocate(faults_.hogBytes);
            hog_ = hog ? *hog : nullptr;
        }
    }
    ~FaultyGpu() override {
        if (hog_) (void)inner().release(hog_);
    }

    BackendKind kind() const override { return BackendKind::Cuda; }
    DeviceInfo describe() const override {
        DeviceInfo info = inner().describe();
        info.backend = BackendKind::Cuda;
        info.deviceIndex = 0;
        // The memory the hog holds counts as free: the run's pre-check cannot see it is gone.
        if (hog_) info.freeMemoryBytes += faults_.hogBytes;
        return info;
    }
    Result<void*> allocate(std::uint64_t bytes) override {
        if (Status s = brokenStatus(); !s) return s;
        if (standIn_ && bytes > faults_.allocationLimit)
            return Status(
                ErrorCode::OutOfMemory,
                "allocating " + std::to_string(bytes) +
                    " bytes on the GPU failed: cudaErrorMemoryAllocation (out of memory)");
        Result<void*> pointer = inner().allocate(bytes);
        if (pointer) ++faults_.allocations;
        return pointer;
    }
    Status release(void* pointer) override {
        ++faults_.releases;
        return inner().release(pointer);
    }
    Status upload(void* d, const void* h, std::uint64_t bytes) override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().upload(d, h, bytes);
    }
    Status download(void* h, const void* d, std::uint64_t bytes) override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().download(h, d, bytes);
    }
    Status fill(void* d, unsigned char byte, std::uint64_t bytes) override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().fill(d, byte, bytes);
    }
    Status copy(void* destination, const void* source, std::uint64_t bytes) override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().copy(destination, source, bytes);
    }
    Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches,
                                             TimedStart start) override {
        if (Status s = brokenStatus(); !s) return s;
        if (!faults_.breakNextLaunch.exchange(false)) return inner().timeLaunches(launches, start);
        if (standIn_) {
            faults_.broken = true;
            return brokenStatus();
        }
        // Every buffer pointer at an address no allocation has: the GPU reports an illegal
        // address, which breaks its context.
        std::vector<KernelLaunch> wild(launches.begin(), launches.end());
        for (KernelLaunch& launch : wild)
            for (void*& buffer : launch.call.buffers)
                buffer = reinterpret_cast<void*>(std::uintptr_t{1} << 46);
        return inner().timeLaunches(wild, start);
    }
    Result<double> timeCopy(void* destination, const void* source, std::uint64_t bytes) override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().timeCopy(destination, source, bytes);
    }
    std::vector<CompileRequest> compileRequests(const KernelLaunch& launch) override {
        return inner().compileRequests(launch);
    }
    Result<bool> choose(const KernelLaunch& launch) override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().choose(launch);
    }
    void useHostThreads(int threads) override { inner().useHostThreads(threads); }
    Status settle() override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().settle();
    }
    Status health() override {
        if (Status s = brokenStatus(); !s) return s;
        return inner().health();
    }

  private:
    Status brokenStatus() const {
        if (!standIn_ || !faults_.broken) return Status::ok();
        return Status(ErrorCode::DeviceError,
                      "running a kernel failed: cudaErrorIllegalAddress (an illegal memory access "
                      "was encountered); the GPU context is now unusable");
    }

    Faults& faults_;
    bool standIn_;
    void* hog_ = nullptr;
};

// One GPU, GPU 0, made of the CPU backend: it can break, be reset, and disappear.
CudaDriver standInDriver(Faults& faults) {
    CudaDriver driver;
    driver.probe = [&faults] {
        BackendAvailability availability;
        availability.cudaBuilt = true;
        availability.cudaUsable = !faults.gone;
        if (faults.gone)
            availability.cudaReason =
                "no usable NVIDIA GPU: cudaErrorNoDevice (no CUDA-capable "
                "device is detected)";
        return availability;
    };
    driver.checkDevice = [&faults](int index) {
        if (!faults.gone && index == 0) return Status::ok();
        return Status(ErrorCode::DeviceUnavailable, "there is no GPU " + std::to_string(index));
    };
    driver.open = [&faults](int) -> Result<std::unique_ptr<Backend>> {
        if (faults.gone) return Status(ErrorCode::DeviceUnavailable, "cudaErrorNoDevice");
        ++faults.opened;
        return std::unique_ptr<Backend>(std::make_unique<FaultyGpu>(createCpuBackend(2), faults));
    };
    driver.reset = [&faults](int) {
        ++faults.resets;
        if (faults.goneOnReset) {
            faults.gone = true;
            return Status(ErrorCode::DeviceUnavailable,
                          "resetting GPU 0 failed: cudaErrorNoDevice (no CUDA-capable device is "
                          "detected)");
        }
        faults.broken = false;
        return Status::ok();
    };
    return driver;
}

// The real GPU 0 behind the faults.
CudaDriver realDriver(Faults& faults) {
    CudaDriver driver;
    driver.open = [&faults](int index) -> Result<std::unique_ptr<Backend>> {
        Result<std::unique_ptr<Backend>> gpu = createCudaBackend(index);
        if (!gpu) return gpu.status();
        ++faults.opened;
        return std::unique_ptr<Backend>(std::make_unique<FaultyGpu>(std::move(*gpu), faults));
    };
    driver.reset = [&faults](int index) {
        ++faults.resets;
        return resetCudaDevice(index);
    };
    return driver;
}

RunCommand affineCommand(BackendChoice backend, std::uint64_t n) {
    RunCommand command;
    command.request.pipeline = "affine";
    command.request.problem.dimensions["N"] = n;
    command.request.settings.repeats = 2;
    command.request.settings.warmup = 0;
    command.request.roofs = false;
    command.request.target.backend = backend;
    command.measure.reset();
    return command;
}

struct Outcome {
    bool finished = false;
    QString message;  // the failure's, or the started note when it finished
    model::Recording recording;
};

// The worker on its own thread with the given driver, as the UI drives it.
class WorkerThread {
  public:
    explicit WorkerThread(CudaDriver driver)
        : onThread_([&driver](RunWorker& worker) { worker.setCudaDriver(std::move(driver)); }),
          worker_(onThread_.worker()) {}
    RunWorker* worker() const { return worker_; }

    Outcome run(const RunCommand& command) {
        QSignalSpy started(worker_, &RunWorker::jobStarted);
        QSignalSpy finished(worker_, &RunWorker::jobFinished);
        QSignalSpy failed(worker_, &RunWorker::jobFailed);
        const JobId id = worker_->enqueue(command);
        // The run's own signals: the worker also reports a probe nobody asked for.
        const auto ofThisRun = [id](const QSignalSpy& spy) -> std::optional<QList<QVariant>> {
            for (const QList<QVariant>& signal : spy)
                if (signal.at(0).value<JobId>() == id) return signal;
            return std::nullopt;
        };
        QElapsedTimer waited;
        waited.start();
        // The answer may already be there: look before waiting.
        while (!ofThisRun(finished) && !ofThisRun(failed) && waited.elapsed() < kRunTimeoutMs)
            finished.wait(100);
        Outcome outcome;
        outcome.finished = ofThisRun(finished).has_value();
        if (outcome.finished) {
            outcome.recording = ofThisRun(finished)->at(2).value<model::Recording>();
            outcome.message = ofThisRun(started) ? ofThisRun(started)->at(2).toString() : QString();
        } else if (const auto failure = ofThisRun(failed)) {
            outcome.message = failure->at(2).toString();
        } else {
            outcome.message = QStringLiteral("no answer in time");
        }
        return outcome;
    }

  private:
    testing_support::WorkerOnThread onThread_;
    RunWorker* worker_;
};

bool gpuHere() {
    return probeBackends().cudaUsable;
}

// Set once a test saw the driver keep the GPU from this process after an illegal address (CUDA
// documents such errors as lasting for the process); ctest runs each real-GPU case in a process
// of its own, so this only matters when they all run in one.
bool gpuKeptFromThisProcess = false;

#define SKIP_WITHOUT_A_FRESH_GPU()                                                             \
    do {                                                                                       \
        if (!gpuHere()) QSKIP(qPrintable(QString::fromStdString(probeBackends().cudaReason))); \
        if (gpuKeptFromThisProcess)                                                            \
            QSKIP(                                                                             \
                "an earlier case's illegal address keeps the GPU from this process; run this " \
                "case alone (ctest does)");                                                    \
    } while (false)

}  // namespace

class GpuFailureWorkerTest : public QObject {
    Q_OBJECT
  private slots:
    void anOutOfMemoryIsReportedAndTheNextRunWorks();
    void aBrokenContextIsResetAndTheNextRunWorks();
    void aGpuGoneAtTheResetLeavesTheCpuAndSaysSo();
    void realGpuOutOfMemoryBeyondWhatIsFree();
    // Before the illegal address test: where the driver keeps the GPU from a process after
    // one, every later GPU test in this process would find it gone.
    void realGpuKernelsLoadedBeforeAResetStillRunAfterIt();
    void realGpuIllegalAddressIsResetAndTheNextRunWorks();
};

void GpuFailureWorkerTest::anOutOfMemoryIsReportedAndTheNextRunWorks() {
    Faults faults;
    faults.allocationLimit = 1 * kMiB;  // the pre-check sees plenty free
    WorkerThread thread(standInDriver(faults));
    const Outcome failed = thread.run(affineCommand(BackendChoice::Cuda, 1u << 20));
    QVERIFY(!failed.finished);
    QVERIFY2(failed.message.contains("out of memory"), qPrintable(failed.message));
    QVERIFY2(failed.message.contains("4194304 bytes"), qPrintable(failed.message));
    // Not a broken context: nothing is reset, and every buffer made was released.
    QVERIFY2(!failed.message.contains("reset"), qPrintable(failed.message));
    QCOMPARE(faults.resets.load(), 0);
    QCOMPARE(faults.releases.load(), faults.allocations.load());

    const Outcome next = thread.run(affineCommand(BackendChoice::Cuda, 4096));
    QVERIFY2(next.finished, qPrintable(next.message));
    QCOMPARE(faults.opened.load(), 1);  // the same GPU backend
    QCOMPARE(faults.releases.load(), faults.allocations.load());
}

void GpuFailureWorkerTest::aBrokenContextIsResetAndTheNextRunWorks() {
    Faults faults;
    faults.breakNextLaunch = true;
    WorkerThread thread(standInDriver(faults));
    const Outcome failed = thread.run(affineCommand(BackendChoice::Cuda, 4096));
    QVERIFY(!failed.finished);
    QVERIFY2(failed.message.contains("cudaErrorIllegalAddress"), qPrintable(failed.message));
    QVERIFY2(failed.message.contains("FuseScope reset it"), qPrintable(failed.message));
    QCOMPARE(faults.resets.load(), 1);
    QCOMPARE(faults.releases.load(), faults.allocations.load());

    const Outcome next = thread.run(affineCommand(BackendChoice::Cuda, 4096));
    QVERIFY2(next.finished, qPrintable(next.message));
    QCOMPARE(faults.opened.load(), 2);  // a fresh backend on the reset GPU
    QCOMPARE(next.recording.device.backend, fusescope::BackendKind::Cuda);
}

void GpuFailureWorkerTest::aGpuGoneAtTheResetLeavesTheCpuAndSaysSo() {
    Faults faults;
    faults.breakNextLaunch = true;
    faults.goneOnReset = true;
    WorkerThread thread(standInDriver(faults));
    QSignalSpy answers(thread.worker(), &RunWorker::jobFinished);
    const Outcome failed = thread.run(affineCommand(BackendChoice::Auto, 4096));
    QList<QList<QVariant>> probed;
    for (const QList<QVariant>& answer : answers)
        if (answer.at(1).value<JobKind>() == JobKind::Probe) probed << answer;
    QVERIFY(!failed.finished);
    QVERIFY2(failed.message.contains("could not be reset"), qPrintable(failed.message));
    QVERIFY2(failed.message.contains("the GPU is unavailable"), qPrintable(failed.message));
    // The views are told, before the failure arrives, that the GPU is gone.
    QCOMPARE(probed.count(), 1);
    const auto summary = probed.first().at(2).value<BackendSummary>();
    QVERIFY(!summary.cudaUsable);
    QVERIFY2(summary.cudaReason.contains("cudaErrorNoDevice"), qPrintable(summary.cudaReason));

    const Outcome onCpu = thread.run(affineCommand(BackendChoice::Auto, 4096));
    QVERIFY2(onCpu.finished, qPrintable(onCpu.message));
    QVERIFY2(onCpu.message.contains("using the CPU backend"), qPrintable(onCpu.message));
    QCOMPARE(onCpu.recording.device.backend, fusescope::BackendKind::Cpu);

    RunCommand onGpu = affineCommand(BackendChoice::Cuda, 4096);
    onGpu.request.target.cudaDevice = 0;
    const Outcome refused = thread.run(onGpu);
    QVERIFY(!refused.finished);
    QVERIFY2(refused.message.contains("there is no GPU 0"), qPrintable(refused.message));
}

void GpuFailureWorkerTest::realGpuOutOfMemoryBeyondWhatIsFree() {
    SKIP_WITHOUT_A_FRESH_GPU();
    // Memory is held from the moment the GPU opens but still reported free: the run's
    // pre-check passes, and its allocations fail on the device.
    std::uint64_t freeBytes = 0;
    {
        Result<std::unique_ptr<Backend>> gpu = createCudaBackend(0);
        QVERIFY2(gpu, gpu ? "" : gpu.status().message().c_str());
        freeBytes = (*gpu)->describe().freeMemoryBytes;
    }
    RunCommand large = affineCommand(BackendChoice::Cuda, 4096);
    DeviceInfo reported;
    reported.freeMemoryBytes = freeBytes;
    reported.name = "the GPU";
    large.request.problem.dimensions["N"] = maxSizeFor(large.request, reported) * 7 / 9;
    const std::uint64_t footprint = footprintBytes(large.request);
    QVERIFY(footprint > 0 && footprint < freeBytes);
    Faults faults;
    faults.hogBytes = freeBytes - footprint / 2;  // half of what the run needs is left
    WorkerThread thread(realDriver(faults));
    const Outcome failed = thread.run(large);
    QVERIFY(!failed.finished);
    QVERIFY2(failed.message.contains("cudaErrorMemoryAllocation"), qPrintable(failed.message));
    QVERIFY2(failed.message.contains("bytes free of"), qPrintable(failed.message));
    QCOMPARE(faults.resets.load(), 0);
    QCOMPARE(faults.releases.load(), faults.allocations.load());

    const Outcome next = thread.run(affineCommand(BackendChoice::Cuda, 1u << 20));
    QVERIFY2(next.finished, qPrintable(next.message));
    QCOMPARE(faults.opened.load(), 1);
}

void GpuFailureWorkerTest::realGpuIllegalAddressIsResetAndTheNextRunWorks() {
    SKIP_WITHOUT_A_FRESH_GPU();
    Faults faults;
    faults.breakNextLaunch = true;
    WorkerThread thread(realDriver(faults));
    const Outcome failed = thread.run(affineCommand(BackendChoice::Cuda, 1u << 20));
    QVERIFY(!failed.finished);
    QVERIFY2(failed.message.contains("cudaErrorIllegalAddress"), qPrintable(failed.message));
    QCOMPARE(faults.resets.load(), 1);
    if (!failed.message.contains("FuseScope reset it")) {
        // CUDA documents an illegal address as lasting for the process, and the H200's driver
        // refuses a fresh context after it: the program says so and goes on without the GPU.
        gpuKeptFromThisProcess = true;
        QVERIFY2(failed.message.contains("until FuseScope is started again"),
                 qPrintable(failed.message));
        const Outcome onCpu = thread.run(affineCommand(BackendChoice::Auto, 4096));
        QVERIFY2(onCpu.finished, qPrintable(onCpu.message));
        QCOMPARE(onCpu.recording.device.backend, fusescope::BackendKind::Cpu);
        const Outcome refused = thread.run(affineCommand(BackendChoice::Cuda, 4096));
        QVERIFY(!refused.finished);
        return;
    }

    const Outcome next = thread.run(affineCommand(BackendChoice::Cuda, 1u << 20));
    QVERIFY2(next.finished, qPrintable(next.message));
    QCOMPARE(faults.opened.load(), 2);
    for (const model::VariantResult& run : next.recording.runs)
        QVERIFY2(run.check.ok, run.variant.c_str());
}

void GpuFailureWorkerTest::realGpuKernelsLoadedBeforeAResetStillRunAfterIt() {
    SKIP_WITHOUT_A_FRESH_GPU();
    // The MLP's kernels (cuBLAS, and the lesson's run-time compiled one, kept loaded by the
    // process) are loaded before the reset; every variant must still run and pass after it.
    const PipelineSpec* mlp = findPipeline("mlp");
    QVERIFY(mlp);
    RunCommand mlpCommand = affineCommand(BackendChoice::Cuda, 1);
    mlpCommand.request.pipeline = mlp->name;
    mlpCommand.request.problem = mlp->defaultProblem();
    Faults faults;
    WorkerThread thread(realDriver(faults));
    const Outcome before = thread.run(mlpCommand);
    QVERIFY2(before.finished, qPrintable(before.message));
    faults.breakNextLaunch = true;
    const Outcome failed = thread.run(affineCommand(BackendChoice::Cuda, 1u << 20));
    if (!failed.message.contains("FuseScope reset it")) {
        // As above: where the driver keeps the GPU from this process, the run says so.
        gpuKeptFromThisProcess = true;
        QVERIFY2(failed.message.contains("until FuseScope is started again"),
                 qPrintable(failed.message));
        return;
    }
    const Outcome after = thread.run(mlpCommand);
    QVERIFY2(after.finished, qPrintable(after.message));
    QCOMPARE(after.recording.runs.size(), before.recording.runs.size());
    for (const model::VariantResult& run : after.recording.runs)
        QVERIFY2(run.check.ok, run.variant.c_str());
}

QTEST_GUILESS_MAIN(GpuFailureWorkerTest)
#include "gpu_failure_worker_test.moc"
