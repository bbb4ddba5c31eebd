#pragma once
// Kernels compiled at run time: the compiler interface (NVRTC, loaded with dlopen so a machine
// without the toolkit still runs the precompiled kernels), and the module cache in memory and on
// disk. No CUDA headers: a module is bytes (a cubin) until the CUDA side loads it.
//
// A disk entry is one file per key, named by the key's hash: a header (magic, format version,
// the whole key text, payload size, payload checksum) and the cubin. An entry whose header,
// key or checksum does not match is rebuilt and replaced, never trusted; so is one that is a
// link, another user's, or writable by others (private_files.h). The folder is made private
// (0700); one of another user's, or writable by others, is not used. Writes go to a temporary
// file created exclusively under an unpredictable name and are renamed over the entry.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/cancel_token.h"
#include "core/status.h"

namespace fusescope {

struct CompileRequest {
    std::string name;    // the source's file name in compiler messages
    std::string source;  // self-contained: no #include beyond what the compiler has built in
    std::vector<std::string> options;  // macro definitions and flags, architecture excluded
    std::string architecture;          // "sm_90"
};

struct CompiledModule {
    std::vector<unsigned char> image;  // cubin
    std::string log;                   // the compiler's messages (warnings)
    double compileMs = 0.0;            // 0 for cache hits
    std::string origin;                // "nvrtc", "memory cache", "disk cache"
    std::string key;                   // the cache key text
};

class ModuleCompiler {
  public:
    virtual ~ModuleCompiler() = default;
    // "NVRTC 13.0": part of every cache key.
    virtual std::string version() const = 0;
    // The cubin, or the error with the compiler's log. Must be safe to call from several
    // threads at once (NVRTC is, for separate programs).
    virtual Result<std::vector<unsigned char>> compile(const CompileRequest& request,
                                                       std::string& log) = 0;
};

// NVRTC from the toolkit (libnvrtc.so.13, found through the loader's path, then under
// $CUDA_HOME, /usr/local/cuda and /usr/local/cuda-13.0; $FUSESCOPE_NVRTC names the only file to
// try), or "NVRTC not found: ..." naming where it looked.
Result<std::unique_ptr<ModuleCompiler>> loadNvrtc();

// 64-bit FNV-1a: cache keys and entry checksums (integrity, not security).
std::uint64_t fnv1a64(const void* data, std::size_t size,
                      std::uint64_t seed = 14695981039346656037ull);

// A caller that stops waiting for a compilation (a cancel) leaves it to finish on a thread of
// the cache's own, which stores the module for the next run: NVRTC cannot be interrupted and
// takes seconds, longer than a cancel may wait. So a compiler must outlive every cache it was
// handed to; the cache's destructor waits for those compilations.
class ModuleCache {
  public:
    // `directory` empty: memory only. `driverVersion` is part of every key (a new driver may
    // want the module rebuilt).
    ModuleCache(std::string directory, std::string driverVersion);
    ~ModuleCache();
    ModuleCache(const ModuleCache&) = delete;
    ModuleCache& operator=(const ModuleCache&) = delete;

    // The key text of a request: source hash, options, architecture, compiler and driver.
    std::string keyOf(const ModuleCompiler& compiler, const CompileRequest& request) const;
    // The disk entry's path for a key ("" when memory only).
    std::string entryPath(const std::string& key) const;

    // From memory, else from disk, else compiled (then stored in both). Thread-safe. While it
    // compiles it asks `cancel` every few tens of milliseconds; once cancelled it returns
    // Cancelled at once and the compilation goes on in the background.
    Result<CompiledModule> get(ModuleCompiler& compiler, const CompileRequest& request,
                               const CancelToken& cancel = {});
    // Every request: those the cache holds found on the calling thread, the rest compiled on up
    // to `threads` threads of the cache's own; `progress(done, total)` is called on
    // the calling thread as results come in and every few tens of milliseconds between, and
    // returning false from it returns at once: compilations not ended by then come back as
    // Cancelled (those under way finish in the background and are stored).
    std::vector<Result<CompiledModule>> getAll(
        ModuleCompiler& compiler, const std::vector<CompileRequest>& requests, int threads,
        const std::function<bool(std::size_t done, std::size_t total)>& progress = {});

    // What the last lookups found, for tests and reports.
    int compiledCount() const;
    int diskHits() const;
    int memoryHits() const;
    int rejectedEntries() const;  // corrupt or foreign entries that were rebuilt
    void forgetMemory();          // tests: the next lookup goes to disk

  private:
    std::optional<CompiledModule> cached(const std::string& key);
    Result<CompiledModule> compileAndStore(ModuleCompiler& compiler, const CompileRequest& request,
                                           const std::string& key);
    // Runs `work` on a thread the destructor joins (threads that have ended are joined here).
    void startInBackground(std::function<void()> work);
    Result<CompiledModule> readEntry(const std::string& key) const;
    Status writeEntry(const std::string& key, const std::vector<unsigned char>& image) const;

    std::string directory_;
    std::string driverVersion_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const CompiledModule>> memory_;
    int compiled_ = 0;
    int diskHits_ = 0;
    int memoryHits_ = 0;
    mutable std::atomic<int> rejected_{0};
    struct BackgroundThread {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> ended;
    };
    std::mutex backgroundMutex_;
    std::vector<BackgroundThread> background_;
};

// The process's cache and compiler. The program sets the folder at start (the GUI passes its
// QStandardPaths::CacheLocation, the CLI the same folder); until then the cache is memory only.
void setModuleCacheDirectory(const std::string& directory);
ModuleCache& moduleCache();
void setModuleCacheDriverVersion(const std::string& driverVersion);
// NVRTC, loaded on first use; the same error every time when it is missing.
Result<ModuleCompiler*> runtimeCompiler();
// Every request through the process's cache, each on a thread of its own, so that a caller waits
// for the slowest compilation rather than their sum: the modules in order, else the first
// error, or Cancelled at once on a cancel.
Result<std::vector<CompiledModule>> compileAll(ModuleCompiler& compiler,
                                               const std::vector<CompileRequest>& requests,
                                               const CancelToken& cancel);

}  // namespace fusescope
