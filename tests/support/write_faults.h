#pragma once
// Real write failures and special files for tests, with nothing mounted and no system file
// touched. RLIMIT_FSIZE makes the kernel refuse writes past a size (EFBIG), as a full disk refuses
// them (ENOSPC), in this process or in a child. Special files are made inside the test's own
// folder: a FIFO (mkfifo) and, as root, device nodes with the numbers of /dev/null and /dev/zero.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <QFile>
#include <QString>

namespace testsupport {

// For a child process (QProcess::setChildProcessModifier): writes to files past `bytes` fail
// instead of killing the process with SIGXFSZ. Pipes (stdout, stderr) are not limited.
inline void limitFileSizeInThisProcess(rlim_t bytes) {
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{};
    ::getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
}

// The same for this process, until destroyed.
class ScopedFileSizeLimit {
  public:
    explicit ScopedFileSizeLimit(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &saved_);
        savedHandler_ = ::signal(SIGXFSZ, SIG_IGN);
        limitFileSizeInThisProcess(bytes);
    }
    ~ScopedFileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &saved_);
        ::signal(SIGXFSZ, savedHandler_);
    }
    ScopedFileSizeLimit(const ScopedFileSizeLimit&) = delete;
    ScopedFileSizeLimit& operator=(const ScopedFileSizeLimit&) = delete;

  private:
    rlimit saved_{};
    sighandler_t savedHandler_ = SIG_DFL;
};

inline bool makeFifo(const QString& path) {
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

// Only root may; false otherwise, and the test skips.
inline bool makeCharDevice(const QString& path, unsigned major, unsigned minor) {
    return ::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0600, makedev(major, minor)) == 0;
}
inline bool makeNullDevice(const QString& path) {
    return makeCharDevice(path, 1, 3);
}
inline bool makeZeroDevice(const QString& path) {
    return makeCharDevice(path, 1, 5);
}

inline bool isFifo(const QString& path) {
    struct stat status {};
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 && S_ISFIFO(status.st_mode);
}
inline bool isCharDevice(const QString& path) {
    struct stat status {};
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 && S_ISCHR(status.st_mode);
}

}  // namespace testsupport
