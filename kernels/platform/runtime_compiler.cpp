#include "platform/runtime_compiler.h"
#include "platform/private_files.h"
#include "platform/toolkit_library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

namespace fusescope {
namespace {

// NVRTC's C interface, declared here so that building needs no toolkit headers (nvrtc.h keeps
// these signatures stable across releases).
using NvrtcProgram = struct NvrtcProgramOpaque*;
using NvrtcResult = int;
struct NvrtcApi {
    const char* (*getErrorString)(NvrtcResult);
    NvrtcResult (*version)(int*, int*);
    NvrtcResult (*createProgram)(NvrtcProgram*, const char*, const char*, int, const char* const*,
                                 const char* const*);
    NvrtcResult (*destroyProgram)(NvrtcProgram*);
    NvrtcResult (*compileProgram)(NvrtcProgram, int, const char* const*);
    NvrtcResult (*getCubinSize)(NvrtcProgram, std::size_t*);
    NvrtcResult (*getCubin)(NvrtcProgram, char*);
    NvrtcResult (*getProgramLogSize)(NvrtcProgram, std::size_t*);
    NvrtcResult (*getProgramLog)(NvrtcProgram, char*);
};

class NvrtcCompiler final : public ModuleCompiler {
  public:
    NvrtcCompiler(NvrtcApi api, std::string version) : api_(api), version_(std::move(version)) {}

    std::string version() const override { return version_; }

    Result<std::vector<unsigned char>> compile(const CompileRequest& request,
                                               std::string& log) override {
        NvrtcProgram program = nullptr;
        if (NvrtcResult r = api_.createProgram(&program, request.source.c_str(),
                                               request.name.c_str(), 0, nullptr, nullptr);
            r != 0)
            return Status(ErrorCode::DeviceError,
                          std::string("nvrtcCreateProgram: ") + api_.getErrorString(r));
        std::vector<std::string> options = request.options;
        options.push_back("--gpu-architecture=" + request.architecture);
        std::vector<const char*> pointers;
        for (const std::string& option : options) pointers.push_back(option.c_str());
        const NvrtcResult compiled =
            api_.compileProgram(program, static_cast<int>(pointers.size()), pointers.data());
        std::size_t logSize = 0;
        if (api_.getProgramLogSize(program, &logSize) == 0 && logSize > 1) {
            std::string text(logSize, '\0');
            if (api_.getProgramLog(program, text.data()) == 0) log = text.c_str();
        }
        Result<std::vector<unsigned char>> result = Status(ErrorCode::DeviceError, "");
        if (compiled != 0) {
            result = Status(ErrorCode::DeviceError, "NVRTC could not compile " + request.name +
                                                        ": " + api_.getErrorString(compiled) +
                                                        (log.empty() ? "" : "\n" + log));
        } else {
            std::size_t size = 0;
            std::vector<unsigned char> image;
            if (api_.getCubinSize(program, &size) == 0 && size > 0) {
                image.resize(size);
                if (api_.getCubin(program, reinterpret_cast<char*>(image.data())) != 0)
                    image.clear();
            }
            result =
                image.empty()
                    ? Result<std::vector<unsigned char>>(Status(
                          ErrorCode::DeviceError, "NVRTC produced no cubin for " + request.name +
                                                      " (" + request.architecture + ")"))
                    : Result<std::vector<unsigned char>>(std::move(image));
        }
        api_.destroyProgram(&program);
        return result;
    }

  private:
    NvrtcApi api_;
    std::string version_;
};

std::vector<std::string> nvrtcCandidates() {
    // FUSESCOPE_NVRTC names the one library to try (tests and demonstrations of a machine
    // without the toolkit set it to a path that does not exist).
    std::vector<std::string> candidates =
        toolkitLibraryCandidates("libnvrtc.so.13", "FUSESCOPE_NVRTC");
    if (candidates.size() > 1) candidates.insert(candidates.begin() + 1, "libnvrtc.so");
    return candidates;
}

template <typename F>
bool bind(void* library, const char* name, F& target) {
    target = reinterpret_cast<F>(dlsym(library, name));
    return target != nullptr;
}

// Entry layout (all integers little-endian as written by this machine; a foreign byte order
// fails the magic check).
constexpr char kMagic[8] = {'F', 'S', 'C', 'U', 'B', 'I', 'N', '1'};
constexpr std::uint32_t kEntryFormat = 1;
// Far above any cubin of these kernels (a few hundred KiB); a larger file is no entry.
constexpr std::size_t kMaxEntryBytes = std::size_t{64} << 20;

void appendBytes(std::vector<unsigned char>& out, const void* data, std::size_t size) {
    // resize and memcpy: GCC 12 misreads the inlined vector::insert here as an overflow.
    const std::size_t at = out.size();
    out.resize(at + size);
    if (size > 0) std::memcpy(out.data() + at, data, size);
}

template <typename T>
bool readValue(const std::vector<unsigned char>& in, std::size_t& at, T& value) {
    if (in.size() < at + sizeof(T)) return false;
    std::memcpy(&value, in.data() + at, sizeof(T));
    at += sizeof(T);
    return true;
}

std::string hex(std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace

std::uint64_t fnv1a64(const void* data, std::size_t size, std::uint64_t seed) {
    std::uint64_t hash = seed;
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t k = 0; k < size; ++k) {
        hash ^= p[k];
        hash *= 1099511628211ull;
    }
    return hash;
}

Result<std::unique_ptr<ModuleCompiler>> loadNvrtc() {
    std::string tried;
    for (const std::string& candidate : nvrtcCandidates()) {
        // Kept loaded for the life of the process (compilers may run on several threads).
        void* library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            tried += (tried.empty() ? "" : ", ") + candidate;
            continue;
        }
        NvrtcApi api{};
        if (!bind(library, "nvrtcGetErrorString", api.getErrorString) ||
            !bind(library, "nvrtcVersion", api.version) ||
            !bind(library, "nvrtcCreateProgram", api.createProgram) ||
            !bind(library, "nvrtcDestroyProgram", api.destroyProgram) ||
            !bind(library, "nvrtcCompileProgram", api.compileProgram) ||
            !bind(library, "nvrtcGetCUBINSize", api.getCubinSize) ||
            !bind(library, "nvrtcGetCUBIN", api.getCubin) ||
            !bind(library, "nvrtcGetProgramLogSize", api.getProgramLogSize) ||
            !bind(library, "nvrtcGetProgramLog", api.getProgramLog))
            return Status(ErrorCode::DeviceUnavailable,
                          "NVRTC not found: " + candidate + " lacks the functions this needs");
        int major = 0, minor = 0;
        if (api.version(&major, &minor) != 0)
            return Status(ErrorCode::DeviceUnavailable,
                          "NVRTC not found: " + candidate + " does not report its version");
        return std::unique_ptr<ModuleCompiler>(std::make_unique<NvrtcCompiler>(
            api, "NVRTC " + std::to_string(major) + "." + std::to_string(minor)));
    }
    return Status(ErrorCode::DeviceUnavailable,
                  "NVRTC not found (tried " + tried +
                      "): only the precompiled default tiles run; install the CUDA 13 toolkit "
                      "or set CUDA_HOME to compile other tiles");
}

ModuleCache::ModuleCache(std::string directory, std::string driverVersion)
    : directory_(std::move(directory)), driverVersion_(std::move(driverVersion)) {}

std::string ModuleCache::keyOf(const ModuleCompiler& compiler,
                               const CompileRequest& request) const {
    std::string key = "source " + hex(fnv1a64(request.source.data(), request.source.size())) +
                      "; name " + request.name + "; arch " + request.architecture + "; compiler " +
                      compiler.version() + "; driver " + driverVersion_ + "; options";
    for (const std::string& option : request.options) key += " " + option;
    return key;
}

std::string ModuleCache::entryPath(const std::string& key) const {
    if (directory_.empty()) return {};
    return (std::filesystem::path(directory_) / (hex(fnv1a64(key.data(), key.size())) + ".cubin"))
        .string();
}

Result<CompiledModule> ModuleCache::readEntry(const std::string& key) const {
    const std::string path = entryPath(key);
    if (path.empty()) return Status(ErrorCode::IoError, "no entry");
    if (Status folder = preparePrivateFolder(directory_); !folder) return folder;
    std::error_code error;
    // A missing entry is the usual miss; anything else that is there and refused was planted,
    // or corrupt.
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, error)))
        return Status(ErrorCode::IoError, "no entry");
    Result<std::vector<unsigned char>> read = readPrivateFile(path, kMaxEntryBytes);
    if (!read) {
        ++rejected_;
        return read.status();
    }
    const std::vector<unsigned char>& bytes = *read;
    std::uint32_t format = 0, keyLength = 0;
    std::uint64_t payloadSize = 0, checksum = 0;
    std::size_t at = sizeof kMagic;
    const bool headerOk = bytes.size() >= sizeof kMagic &&
                          std::memcmp(bytes.data(), kMagic, sizeof kMagic) == 0 &&
                          readValue(bytes, at, format) && format == kEntryFormat &&
                          readValue(bytes, at, keyLength) && bytes.size() >= at + keyLength;
    if (!headerOk) {
        ++rejected_;
        return Status(ErrorCode::IoError, "corrupt entry");
    }
    const std::string storedKey(reinterpret_cast<const char*>(bytes.data() + at), keyLength);
    at += keyLength;
    if (storedKey != key || !readValue(bytes, at, payloadSize) || !readValue(bytes, at, checksum) ||
        bytes.size() != at + payloadSize || fnv1a64(bytes.data() + at, payloadSize) != checksum ||
        payloadSize == 0) {
        ++rejected_;
        return Status(ErrorCode::IoError, "corrupt or foreign entry");
    }
    CompiledModule module;
    module.image.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end());
    module.origin = "disk cache";
    module.key = key;
    return module;
}

Status ModuleCache::writeEntry(const std::string& key,
                               const std::vector<unsigned char>& image) const {
    const std::string path = entryPath(key);
    if (path.empty()) return Status::ok();
    if (Status folder = preparePrivateFolder(directory_); !folder) return folder;
    std::vector<unsigned char> bytes;
    appendBytes(bytes, kMagic, sizeof kMagic);
    appendBytes(bytes, &kEntryFormat, sizeof kEntryFormat);
    const auto keyLength = static_cast<std::uint32_t>(key.size());
    appendBytes(bytes, &keyLength, sizeof keyLength);
    appendBytes(bytes, key.data(), key.size());
    const std::uint64_t payloadSize = image.size();
    const std::uint64_t checksum = fnv1a64(image.data(), image.size());
    appendBytes(bytes, &payloadSize, sizeof payloadSize);
    appendBytes(bytes, &checksum, sizeof checksum);
    appendBytes(bytes, image.data(), image.size());
    return writePrivateFile(path, bytes);
}

ModuleCache::~ModuleCache() {
    std::vector<BackgroundThread> threads;
    {
        std::lock_guard lock(backgroundMutex_);
        threads.swap(background_);
    }
    for (BackgroundThread& t : threads) t.thread.join();
}

void ModuleCache::startInBackground(std::function<void()> work) {
    auto ended = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([work = std::move(work), ended] {
        work();
        ended->store(true);
    });
    std::lock_guard lock(backgroundMutex_);
    for (auto it = background_.begin(); it != background_.end();) {
        if (!it->ended->load()) {
            ++it;
            continue;
        }
        it->thread.join();
        it = background_.erase(it);
    }
    background_.push_back({std::move(thread), std::move(ended)});
}

std::optional<CompiledModule> ModuleCache::cached(const std::string& key) {
    {
        std::lock_guard lock(mutex_);
        if (auto found = memory_.find(key); found != memory_.end()) {
            ++memoryHits_;
            CompiledModule module = *found->second;
            module.origin = "memory cache";
            module.compileMs = 0.0;
            return module;
        }
    }
    Result<CompiledModule> fromDisk = readEntry(key);
    if (!fromDisk) return std::nullopt;
    std::lock_guard lock(mutex_);
    ++diskHits_;
    memory_[key] = std::make_shared<const CompiledModule>(*fromDisk);
    return *fromDisk;
}

Result<CompiledModule> ModuleCache::compileAndStore(ModuleCompiler& compiler,
                                                    const CompileRequest& request,
                                                    const std::string& key) {
    const auto start = std::chrono::steady_clock::now();
    std::string log;
    Result<std::vector<unsigned char>> image = compiler.compile(request, log);
    if (!image) return image.status();
    CompiledModule module;
    module.image = std::move(*image);
    module.log = log;
    module.compileMs = millisecondsSince(start);
    module.origin = "nvrtc";
    module.key = key;
    // A cache that cannot be written only costs the next run a compilation.
    (void)writeEntry(key, module.image);
    std::lock_guard lock(mutex_);
    ++compiled_;
    memory_[key] = std::make_shared<const CompiledModule>(module);
    return module;
}

namespace {

// How often a caller waiting for compilations asks whether it was cancelled: well inside the
// half second a cancel may take.
constexpr std::chrono::milliseconds kCancelPoll{20};

Status cancelledWhileCompiling() {
    return Status(ErrorCode::Cancelled,
                  "cancelled by the user while compiling (the compilation finishes in the "
                  "background and is kept for the next run)");
}

}  // namespace

Result<CompiledModule> ModuleCache::get(ModuleCompiler& compiler, const CompileRequest& request,
                                        const CancelToken& cancel) {
    const std::string key = keyOf(compiler, request);
    if (std::optional<CompiledModule> found = cached(key)) return std::move(*found);
    if (!cancel.canBeCancelled()) return compileAndStore(compiler, request, key);
    if (cancel.cancelled()) return cancelledStatus();
    struct Pending {
        std::mutex mutex;
        std::condition_variable ended;
        std::optional<Result<CompiledModule>> result;
    };
    auto pending = std::make_shared<Pending>();
    startInBackground([this, &compiler, request, key, pending] {
        Result<CompiledModule> result = compileAndStore(compiler, request, key);
        std::lock_guard lock(pending->mutex);
        pending->result = std::move(result);
        pending->ended.notify_all();
    });
    std::unique_lock lock(pending->mutex);
    while (!pending->ended.wait_for(lock, kCancelPoll, [&] { return pending->result.has_value(); }))
        if (cancel.cancelled()) return cancelledWhileCompiling();
    return std::move(*pending->result);
}

std::vector<Result<CompiledModule>> ModuleCache::getAll(
    ModuleCompiler& compiler, const std::vector<CompileRequest>& requests, int threads,
    const std::function<bool(std::size_t, std::size_t)>& progress) {
    // Shared with the compiling threads, which may outlive this call after a cancel.
    struct Batch {
        std::vector<CompileRequest> requests;  // those the cache does not hold
        std::vector<std::size_t> positions;    // each one's position in the caller's requests
        std::vector<std::optional<Result<CompiledModule>>> results;
        std::mutex mutex;
        std::condition_variable changed;
        std::size_t done = 0;
        std::atomic<std::size_t> next{0};
        std::atomic<bool> stop{false};
    };
    auto batch = std::make_shared<Batch>();
    const std::size_t total = requests.size();
    batch->results.resize(total);
    // What the cache holds is looked up here; only the rest goes to threads (a run asks again
    // for modules it compiled moments ago).
    for (std::size_t k = 0; k < total; ++k) {
        if (std::optional<CompiledModule> found = cached(keyOf(compiler, requests[k]))) {
            batch->results[k] = std::move(*found);
            ++batch->done;
        } else {
            batch->positions.push_back(k);
            batch->requests.push_back(requests[k]);
        }
    }
    const std::size_t toCompile = batch->requests.size();
    const int count = std::max(1, std::min<int>(threads, static_cast<int>(toCompile)));
    for (int t = 0; t < count && toCompile > 0; ++t)
        startInBackground([this, &compiler, batch, toCompile] {
            for (;;) {
                if (batch->stop.load()) return;
                const std::size_t m = batch->next++;
                if (m >= toCompile) return;
                Result<CompiledModule> result = get(compiler, batch->requests[m]);
                std::lock_guard lock(batch->mutex);
                batch->results[batch->positions[m]] = std::move(result);
                ++batch->done;
                batch->changed.notify_all();
            }
        });
    std::size_t reported = 0;
    while (reported < total) {
        std::unique_lock lock(batch->mutex);
        batch->changed.wait_for(lock, kCancelPoll, [&] { return batch->done > reported; });
        reported = batch->done;
        lock.unlock();
        if (progress && !progress(reported, total)) {
            batch->stop.store(true);
            break;
        }
    }
    std::vector<Result<CompiledModule>> results(
        total, Result<CompiledModule>(Status(ErrorCode::Cancelled, "not compiled: cancelled")));
    std::lock_guard lock(batch->mutex);
    for (std::size_t k = 0; k < total; ++k)
        if (batch->results[k]) results[k] = *batch->results[k];
    return results;
}

int ModuleCache::compiledCount() const {
    std::lock_guard lock(mutex_);
    return compiled_;
}
int ModuleCache::diskHits() const {
    std::lock_guard lock(mutex_);
    return diskHits_;
}
int ModuleCache::memoryHits() const {
    std::lock_guard lock(mutex_);
    return memoryHits_;
}
int ModuleCache::rejectedEntries() const {
    return rejected_.load();
}
void ModuleCache::forgetMemory() {
    std::lock_guard lock(mutex_);
    memory_.clear();
}

namespace {

// The compiler is declared before the cache so that it outlives the cache's background
// compilations when the process ends.
struct ProcessCache {
    std::mutex mutex;
    std::string directory;
    std::string driverVersion;
    bool compilerLoaded = false;
    std::unique_ptr<ModuleCompiler> compiler;
    Status compilerError;
    std::unique_ptr<ModuleCache> cache;
};

ProcessCache& processCache() {
    static ProcessCache state;
    return state;
}

}  // namespace

void setModuleCacheDirectory(const std::string& directory) {
    ProcessCache& state = processCache();
    std::lock_guard lock(state.mutex);
    state.directory = directory;
    state.cache.reset();
}

void setModuleCacheDriverVersion(const std::string& driverVersion) {
    ProcessCache& state = processCache();
    std::lock_guard lock(state.mutex);
    if (state.driverVersion == driverVersion) return;
    state.driverVersion = driverVersion;
    state.cache.reset();
}

ModuleCache& moduleCache() {
    ProcessCache& state = processCache();
    std::lock_guard lock(state.mutex);
    if (!state.cache)
        state.cache = std::make_unique<ModuleCache>(state.directory, state.driverVersion);
    return *state.cache;
}

Result<ModuleCompiler*> runtimeCompiler() {
    ProcessCache& state = processCache();
    std::lock_guard lock(state.mutex);
    if (!state.compilerLoaded) {
        state.compilerLoaded = true;
        Result<std::unique_ptr<ModuleCompiler>> loaded = loadNvrtc();
        if (loaded)
            state.compiler = std::move(*loaded);
        else
            state.compilerError = loaded.status();
    }
    if (!state.compiler) return state.compilerError;
    return state.compiler.get();
}

Result<std::vector<CompiledModule>> compileAll(ModuleCompiler& compiler,
                                               const std::vector<CompileRequest>& requests,
                                               const CancelToken& cancel) {
    std::vector<Result<CompiledModule>> results =
        moduleCache().getAll(compiler, requests, static_cast<int>(requests.size()),
                             [&](std::size_t, std::size_t) { return !cancel.cancelled(); });
    if (cancel.cancelled()) return cancelledStatus();
    std::vector<CompiledModule> modules;
    for (Result<CompiledModule>& result : results) {
        if (!result) return result.status();
        modules.push_back(std::move(*result));
    }
    return modules;
}

}  // namespace fusescope
