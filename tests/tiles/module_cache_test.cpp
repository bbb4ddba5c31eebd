// The module cache with a stand-in compiler: keys separate every input that changes the module,
// hits come from memory then disk, corrupt and foreign entries are rebuilt (never trusted), and
// writes leave no temporary files. Also: a machine without NVRTC says so plainly.
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

#include "platform/runtime_compiler.h"

namespace fusescope {
namespace {

// "Compiles" to bytes derived from the request, and counts its calls.
class StandInCompiler final : public ModuleCompiler {
  public:
    std::string version() const override { return "stand-in 1.0"; }
    Result<std::vector<unsigned char>> compile(const CompileRequest& request,
                                               std::string& log) override {
        ++calls;
        if (delay.count() > 0) std::this_thread::sleep_for(delay);
        if (request.source.find("#error") != std::string::npos) {
            log = "error: the source says so";
            return Status(ErrorCode::DeviceError, "stand-in could not compile: " + log);
        }
        // Appended piece by piece: GCC 12 warns (-Wrestrict) on chained string additions here.
        std::string image = "cubin:";
        image.append(request.architecture).append(":").append(request.source);
        for (const std::string& option : request.options) image.append(":").append(option);
        return std::vector<unsigned char>(image.begin(), image.end());
    }
    std::atomic<int> calls{0};
    // How long a compilation takes (NVRTC takes seconds; the cancel test needs some time).
    std::chrono::milliseconds delay{0};
};

CompileRequest request(std::string source = "kernel", std::string arch = "sm_90",
                       std::vector<std::string> options = {"-DFS_BM=32"}) {
    return {"k.cu", std::move(source), std::move(options), std::move(arch)};
}

std::string text(const std::vector<unsigned char>& bytes) {
    return {bytes.begin(), bytes.end()};
}

class ModuleCacheTest : public ::testing::Test {
  protected:
    std::string folder() const { return dir_.filePath("kernels").toStdString(); }

    // The default request compiled once into the folder: the path of its entry ("" when the
    // compilation failed, which fails the test).
    std::string writtenEntry() {
        ModuleCache cache(folder(), "580");
        const Result<CompiledModule> module = cache.get(compiler_, request());
        EXPECT_TRUE(module) << module.status().message();
        return module ? cache.entryPath(cache.keyOf(compiler_, request())) : std::string();
    }

    // The next process (a fresh cache over the folder) rejects the entry and compiles again:
    // the rebuilt image ("" when there is none, which fails the test).
    std::string imageRebuiltByTheNextProcess() {
        ModuleCache later(folder(), "580");
        const Result<CompiledModule> module = later.get(compiler_, request());
        EXPECT_TRUE(module) << module.status().message();
        if (!module) return {};
        EXPECT_EQ(module->origin, "nvrtc");
        EXPECT_EQ(later.rejectedEntries(), 1);
        return text(module->image);
    }

    QTemporaryDir dir_;
    StandInCompiler compiler_;
};

TEST_F(ModuleCacheTest, KeysSeparateSourceOptionsArchitectureCompilerAndDriver) {
    ModuleCache cache(folder(), "580");
    const std::string base = cache.keyOf(compiler_, request());
    EXPECT_EQ(base, cache.keyOf(compiler_, request()));
    EXPECT_NE(base, cache.keyOf(compiler_, request("kernel2")));
    EXPECT_NE(base, cache.keyOf(compiler_, request("kernel", "sm_80")));
    EXPECT_NE(base, cache.keyOf(compiler_, request("kernel", "sm_90", {"-DFS_BM=64"})));
    EXPECT_NE(base, ModuleCache(folder(), "590").keyOf(compiler_, request()));
    EXPECT_NE(cache.entryPath(base), cache.entryPath(cache.keyOf(compiler_, request("k2"))));
}

TEST_F(ModuleCacheTest, CompilesOnceThenHitsMemoryThenDisk) {
    ModuleCache cache(folder(), "580");
    Result<CompiledModule> first = cache.get(compiler_, request());
    ASSERT_TRUE(first) << first.status().message();
    EXPECT_EQ(first->origin, "nvrtc");
    EXPECT_EQ(compiler_.calls.load(), 1);
    Result<CompiledModule> second = cache.get(compiler_, request());
    ASSERT_TRUE(second);
    EXPECT_EQ(second->origin, "memory cache");
    EXPECT_EQ(second->image, first->image);
    // A new process (a fresh cache over the same folder) reads the disk entry.
    ModuleCache later(folder(), "580");
    Result<CompiledModule> third = later.get(compiler_, request());
    ASSERT_TRUE(third);
    EXPECT_EQ(third->origin, "disk cache");
    EXPECT_EQ(third->image, first->image);
    EXPECT_EQ(compiler_.calls.load(), 1);
    // Another driver version compiles again.
    ModuleCache newDriver(folder(), "590");
    ASSERT_TRUE(newDriver.get(compiler_, request()));
    EXPECT_EQ(compiler_.calls.load(), 2);
}

TEST_F(ModuleCacheTest, ACorruptEntryIsRebuiltNotTrusted) {
    const std::string path = writtenEntry();
    ASSERT_FALSE(path.empty());
    ASSERT_TRUE(std::filesystem::exists(path));
    // Flip the last byte of the payload: the checksum no longer matches.
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekg(-1, std::ios::end);
        char c = 0;
        file.get(c);
        file.seekp(-1, std::ios::end);
        file.put(static_cast<char>(c ^ 0x5a));
    }
    EXPECT_EQ(imageRebuiltByTheNextProcess(), "cubin:sm_90:kernel:-DFS_BM=32");
    // The rebuilt entry replaced the corrupt one.
    ModuleCache again(folder(), "580");
    EXPECT_EQ(again.get(compiler_, request())->origin, "disk cache");
}

TEST_F(ModuleCacheTest, TruncatedAndEmptyEntriesAreRebuilt) {
    const std::string path = writtenEntry();
    ASSERT_FALSE(path.empty());
    for (std::uintmax_t size : {std::uintmax_t{20}, std::uintmax_t{0}}) {
        std::filesystem::resize_file(path, size);
        imageRebuiltByTheNextProcess();
    }
}

TEST_F(ModuleCacheTest, AForeignEntryUnderTheKeysNameIsRebuilt) {
    // Another key's valid entry copied over this key's file (a hash collision, or a copy by
    // hand): its stored key differs, so it is not used.
    ModuleCache cache(folder(), "580");
    ASSERT_TRUE(cache.get(compiler_, request("other")));
    const std::string other = cache.entryPath(cache.keyOf(compiler_, request("other")));
    const std::string mine = cache.entryPath(cache.keyOf(compiler_, request()));
    std::filesystem::copy_file(other, mine);
    EXPECT_EQ(imageRebuiltByTheNextProcess(), "cubin:sm_90:kernel:-DFS_BM=32");
}

TEST_F(ModuleCacheTest, WritesLeaveOnlyEntries) {
    ModuleCache cache(folder(), "580");
    const std::vector<CompileRequest> requests = {request("a"), request("b"), request("c"),
                                                  request("a")};
    std::size_t lastDone = 0;
    const auto results = cache.getAll(compiler_, requests, 3, [&](std::size_t done, std::size_t) {
        EXPECT_GE(done, lastDone);
        lastDone = done;
        return true;
    });
    ASSERT_EQ(results.size(), 4u);
    for (const auto& result : results) EXPECT_TRUE(result) << result.status().message();
    EXPECT_EQ(lastDone, 4u);
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder())) {
        ++files;
        EXPECT_EQ(entry.path().extension(), ".cubin") << entry.path();
    }
    EXPECT_EQ(files, 3);
}

TEST_F(ModuleCacheTest, CompileErrorsCarryTheLogAndAreNotCached) {
    ModuleCache cache(folder(), "580");
    Result<CompiledModule> failed = cache.get(compiler_, request("#error no"));
    ASSERT_FALSE(failed);
    EXPECT_NE(failed.status().message().find("the source says so"), std::string::npos);
    EXPECT_FALSE(cache.get(compiler_, request("#error no")));
    EXPECT_EQ(compiler_.calls.load(), 2);
}

TEST_F(ModuleCacheTest, CancellingStopsStartingCompilations) {
    ModuleCache cache(folder(), "580");
    // Long enough that the caller's answer to the first result arrives while the second is
    // still compiling.
    compiler_.delay = std::chrono::milliseconds(50);
    std::vector<CompileRequest> requests;
    for (int k = 0; k < 20; ++k) requests.push_back(request(std::to_string(k)));
    const auto results =
        cache.getAll(compiler_, requests, 1, [](std::size_t, std::size_t) { return false; });
    int cancelled = 0;
    for (const auto& result : results)
        if (!result && result.status().code() == ErrorCode::Cancelled) ++cancelled;
    EXPECT_GT(cancelled, 0);
    EXPECT_LT(compiler_.calls.load(), 20);
}

// A cancel that arrives `after` this long, from another thread, as the Cancel button's does.
class CancelLater {
  public:
    explicit CancelLater(std::chrono::milliseconds after)
        : thread_([this, after] {
              std::this_thread::sleep_for(after);
              asked_.store(true);
          }) {}
    ~CancelLater() { thread_.join(); }
    CancelToken token() const {
        return CancelToken([this] { return asked_.load(); });
    }

  private:
    std::atomic<bool> asked_{false};
    std::thread thread_;
};

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// NVRTC cannot be interrupted and takes seconds; a cancel may take half a second at most.
constexpr auto kSlowCompile = std::chrono::milliseconds(1500);
constexpr double kCancelWithinMs = 500.0;

TEST_F(ModuleCacheTest, ACancelWhileCompilingReturnsAtOnceAndTheModuleIsKept) {
    compiler_.delay = kSlowCompile;
    {
        ModuleCache cache(folder(), "580");
        const CancelLater cancel(std::chrono::milliseconds(100));
        const auto start = std::chrono::steady_clock::now();
        const Result<CompiledModule> module = cache.get(compiler_, request(), cancel.token());
        const double waitedMs = millisecondsSince(start);
        ASSERT_FALSE(module);
        EXPECT_EQ(module.status().code(), ErrorCode::Cancelled);
        EXPECT_NE(module.status().message().find("kept for the next run"), std::string::npos)
            << module.status().message();
        EXPECT_LT(waitedMs, 100.0 + kCancelWithinMs);
        EXPECT_EQ(compiler_.calls.load(), 1);
    }  // the cache waits for its background compilation here
    compiler_.delay = std::chrono::milliseconds(0);
    ModuleCache next(folder(), "580");
    const Result<CompiledModule> kept = next.get(compiler_, request());
    ASSERT_TRUE(kept) << kept.status().message();
    EXPECT_EQ(kept->origin, "disk cache");
    EXPECT_EQ(compiler_.calls.load(), 1);
}

TEST_F(ModuleCacheTest, AGetThatIsNotCancelledWaitsForItsModule) {
    compiler_.delay = std::chrono::milliseconds(200);
    ModuleCache cache(folder(), "580");
    const Result<CompiledModule> module =
        cache.get(compiler_, request(), CancelToken([] { return false; }));
    ASSERT_TRUE(module) << module.status().message();
    EXPECT_EQ(module->origin, "nvrtc");
    EXPECT_GE(module->compileMs, 150.0);
    // A cancel asked for before the call compiles nothing.
    const Result<CompiledModule> refused =
        cache.get(compiler_, request("another"), CancelToken([] { return true; }));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code(), ErrorCode::Cancelled);
    EXPECT_EQ(compiler_.calls.load(), 1);
}

TEST_F(ModuleCacheTest, AllCompilationsReturnAtOnceOnACancelAndTheModulesAreKept) {
    compiler_.delay = kSlowCompile;
    const std::vector<CompileRequest> requests = {request("a"), request("b")};
    {
        ModuleCache cache(folder(), "580");
        const auto start = std::chrono::steady_clock::now();
        int asked = 0;
        const auto results = cache.getAll(compiler_, requests, 2, [&](std::size_t, std::size_t) {
            ++asked;
            return millisecondsSince(start) < 100.0;
        });
        const double waitedMs = millisecondsSince(start);
        EXPECT_LT(waitedMs, 100.0 + kCancelWithinMs);
        // Asked between results too, not only when one comes in.
        EXPECT_GE(asked, 2);
        ASSERT_EQ(results.size(), 2u);
        for (const auto& result : results) {
            ASSERT_FALSE(result);
            EXPECT_EQ(result.status().code(), ErrorCode::Cancelled);
        }
    }
    EXPECT_EQ(compiler_.calls.load(), 2);
    compiler_.delay = std::chrono::milliseconds(0);
    ModuleCache next(folder(), "580");
    for (const CompileRequest& r : requests) {
        const Result<CompiledModule> kept = next.get(compiler_, r);
        ASSERT_TRUE(kept) << kept.status().message();
        EXPECT_EQ(kept->origin, "disk cache");
    }
    EXPECT_EQ(compiler_.calls.load(), 2);
}

// Through the process's cache: the modules in the requests' order, the first error, or a cancel
// at once while they compile.
TEST_F(ModuleCacheTest, CompileAllGivesTheModulesInOrderTheFirstErrorOrACancel) {
    const std::vector<CompileRequest> requests = {request("compileAll one"),
                                                  request("compileAll two")};
    const Result<std::vector<CompiledModule>> modules =
        compileAll(compiler_, requests, CancelToken());
    ASSERT_TRUE(modules) << modules.status().message();
    ASSERT_EQ(modules->size(), 2u);
    EXPECT_NE(text((*modules)[0].image).find("compileAll one"), std::string::npos);
    EXPECT_NE(text((*modules)[1].image).find("compileAll two"), std::string::npos);

    const Result<std::vector<CompiledModule>> failed = compileAll(
        compiler_, {request("compileAll fine"), request("#error compileAll")}, CancelToken());
    ASSERT_FALSE(failed);
    EXPECT_NE(failed.status().message().find("stand-in could not compile"), std::string::npos);

    // The process's cache finishes the cancelled compilation after this test: its compiler must
    // outlive the process's cache, as NVRTC's does.
    static StandInCompiler* const lastsTheProcess = new StandInCompiler;
    lastsTheProcess->delay = kSlowCompile;
    const CancelLater cancel(std::chrono::milliseconds(100));
    const auto start = std::chrono::steady_clock::now();
    const Result<std::vector<CompiledModule>> cancelled =
        compileAll(*lastsTheProcess, {request("compileAll slow")}, cancel.token());
    EXPECT_LT(millisecondsSince(start), 100.0 + kCancelWithinMs);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.status().code(), ErrorCode::Cancelled);
}

// Modules the cache holds come back from it at once, with the others compiled, each in its place.
TEST_F(ModuleCacheTest, AllCompilationsFindWhatTheCacheHoldsAndCompileTheRest) {
    ModuleCache cache(folder(), "580");
    ASSERT_TRUE(cache.get(compiler_, request("held")));
    const std::vector<CompileRequest> requests = {request("new"), request("held")};
    const auto results = cache.getAll(compiler_, requests, 2);
    ASSERT_EQ(results.size(), 2u);
    ASSERT_TRUE(results[0] && results[1]);
    EXPECT_EQ(results[0]->origin, "nvrtc");
    EXPECT_NE(text(results[0]->image).find("new"), std::string::npos);
    EXPECT_EQ(results[1]->origin, "memory cache");
    EXPECT_NE(text(results[1]->image).find("held"), std::string::npos);
    EXPECT_EQ(compiler_.calls.load(), 2);
}

TEST_F(ModuleCacheTest, MemoryOnlyWithoutAFolder) {
    ModuleCache cache("", "580");
    EXPECT_EQ(cache.entryPath(cache.keyOf(compiler_, request())), "");
    ASSERT_TRUE(cache.get(compiler_, request()));
    EXPECT_EQ(cache.get(compiler_, request())->origin, "memory cache");
}

// ---- A shared machine: nothing another user puts in or around the folder is trusted. ----------

std::filesystem::perms permissionsOf(const std::string& path) {
    return std::filesystem::symlink_status(path).permissions() & std::filesystem::perms::mask;
}

TEST_F(ModuleCacheTest, TheFolderIsMadePrivate) {
    ModuleCache cache(folder(), "580");
    ASSERT_TRUE(cache.get(compiler_, request()));
    EXPECT_EQ(permissionsOf(folder()), std::filesystem::perms::owner_all);
    // An existing folder others could read is made private too.
    std::filesystem::permissions(
        folder(), std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                      std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                      std::filesystem::perms::others_exec);
    ModuleCache later(folder(), "580");
    EXPECT_EQ(later.get(compiler_, request())->origin, "disk cache");
    EXPECT_EQ(permissionsOf(folder()), std::filesystem::perms::owner_all);
}

TEST_F(ModuleCacheTest, AFolderOthersCanWriteIsNotUsed) {
    ModuleCache cache(folder(), "580");
    ASSERT_TRUE(cache.get(compiler_, request()));
    std::filesystem::permissions(folder(), std::filesystem::perms::all);
    ModuleCache later(folder(), "580");
    Result<CompiledModule> module = later.get(compiler_, request());
    ASSERT_TRUE(module);
    EXPECT_EQ(module->origin, "nvrtc");
    EXPECT_EQ(compiler_.calls.load(), 2);
}

TEST_F(ModuleCacheTest, AnEntryOthersCanWriteIsRebuilt) {
    const std::string path = writtenEntry();
    ASSERT_FALSE(path.empty());
    std::filesystem::permissions(path, std::filesystem::perms::others_write,
                                 std::filesystem::perm_options::add);
    imageRebuiltByTheNextProcess();
    // Replaced by a private entry of ours, which the next process trusts.
    EXPECT_EQ(permissionsOf(path) & std::filesystem::perms::others_write,
              std::filesystem::perms::none);
    ModuleCache again(folder(), "580");
    EXPECT_EQ(again.get(compiler_, request())->origin, "disk cache");
}

TEST_F(ModuleCacheTest, AnEntryThatIsALinkIsNotFollowed) {
    const std::string path = writtenEntry();
    ASSERT_FALSE(path.empty());
    const std::string elsewhere = dir_.filePath("elsewhere.cubin").toStdString();
    std::filesystem::rename(path, elsewhere);
    std::filesystem::create_symlink(elsewhere, path);
    imageRebuiltByTheNextProcess();
}

TEST_F(ModuleCacheTest, AnotherUsersEntryIsRebuilt) {
    const std::string path = writtenEntry();
    ASSERT_FALSE(path.empty());
    if (::chown(path.c_str(), 65534, 65534) != 0) GTEST_SKIP() << "chown needs root";
    imageRebuiltByTheNextProcess();
}

// The temporary name was the entry's name, the process id and a counter, written through a
// stream that follows links: a link planted under that name overwrote any file of ours.
TEST_F(ModuleCacheTest, ALinkPlantedUnderATemporaryNameIsNotWrittenThrough) {
    ModuleCache cache(folder(), "580");
    const std::string path = cache.entryPath(cache.keyOf(compiler_, request()));
    std::filesystem::create_directories(folder());
    const std::string victim = dir_.filePath("victim.txt").toStdString();
    { std::ofstream(victim) << "mine"; }
    for (int k = 0; k < 4096; ++k)
        std::filesystem::create_symlink(
            victim, path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(k));
    ASSERT_TRUE(cache.get(compiler_, request()));
    std::ifstream read(victim);
    std::string contents((std::istreambuf_iterator<char>(read)), std::istreambuf_iterator<char>());
    EXPECT_EQ(contents, "mine");
    ModuleCache later(folder(), "580");
    EXPECT_EQ(later.get(compiler_, request())->origin, "disk cache");
}

TEST(Nvrtc, AMissingLibraryIsNamedPlainly) {
    ::setenv("FUSESCOPE_NVRTC", "/nonexistent/libnvrtc.so.13", 1);
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    ::unsetenv("FUSESCOPE_NVRTC");
    ASSERT_FALSE(nvrtc);
    EXPECT_EQ(nvrtc.status().message().rfind("NVRTC not found", 0), 0u) << nvrtc.status().message();
    EXPECT_NE(nvrtc.status().message().find("precompiled default tiles"), std::string::npos);
}

}  // namespace
}  // namespace fusescope
