#pragma once
// A stand-in compiler and executor for the worker's tile commands (worker/tile_engine.h): it
// "compiles" each configuration (slow on request, failing with a log for chosen tiles), then
// "times" it with deterministic medians, so sweeps' progress and ETA, cancelling mid-compile or
// mid-measure, compile failures and superseding are tested with no GPU and on any machine. The
// test can hold it before a chosen step: it stays there (checking the cancel flag) until
// released, so a test sees the worker busy without racing it.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "worker/tile_engine.h"

namespace fusescope::testing {

class FakeTileEngine final : public TileEngine {
  public:
    struct Script {
        // What one step costs on the engine's own clock (the ETA it reports), in seconds.
        double compileSeconds = 2.0;
        double measureSeconds = 1.0;
        // Real time one step takes, in milliseconds (a slow compiler or kernel).
        int compileDelayMs = 0;
        int measureDelayMs = 0;
        // Configurations (tiles::tilesText) the compiler rejects, and its log for them.
        std::set<std::string> failingCompiles;
        std::string compileLog = "error: too many resources requested for launch";
    };

    enum class Step { Compile, Measure };

    explicit FakeTileEngine(Script script) : script_(std::move(script)) {}

    // Stops before `step` of the configuration at `index` (configurationsOf order) until
    // release() or a cancel. Set before the sweep starts.
    void holdBefore(Step step, std::size_t index);
    // True while the engine waits at the hold (it stays true until released or cancelled).
    bool isHolding() const { return holding_.load(); }
    void release();

    // The median the executor reports for a configuration: a function of its tiles alone.
    static double medianMsOf(const tiles::TileConfiguration& configuration);
    // The reason a rejected configuration's cell carries.
    std::string compileFailureReason() const;
    int compiled() const { return compiled_.load(); }
    int measured() const { return measured_.load(); }

    Result<tiles::ResourceReport> report(Backend& backend,
                                         const tiles::TileConfiguration& configuration) override;
    Result<tiles::TileRunResult> run(Backend& backend,
                                     const tiles::TileConfiguration& configuration,
                                     const RunSettings& settings, RunObserver& observer) override;
    Result<tiles::TileSweep> sweep(Backend& backend, const tiles::TileSweepRequest& request,
                                   tiles::TileObserver& observer) override;

  private:
    // Waits at the hold if it is this step's; false when cancelled there.
    template <typename Cancelled>
    bool passHold(Step step, std::size_t index, const Cancelled& cancelled);
    // Sleeps `ms` in short slices; false when cancelled meanwhile.
    template <typename Cancelled>
    static bool work(int ms, const Cancelled& cancelled);
    // The model report with the stand-in compiler's resources, or its rejection.
    tiles::ResourceReport compile(const tiles::TileConfiguration& configuration,
                                  const tiles::DeviceLimits& limits);
    tiles::TileCell measure(const tiles::ResourceReport& report, int repeats) const;

    Script script_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<std::pair<Step, std::size_t>> hold_;
    std::atomic<bool> holding_{false};
    std::atomic<int> compiled_{0};
    std::atomic<int> measured_{0};
};

}  // namespace fusescope::testing
