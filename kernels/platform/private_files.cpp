#include "platform/private_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fusescope {
namespace {

Status ioError(const std::string& message) {
    return Status(ErrorCode::IoError, message);
}

std::string reason() {
    return std::strerror(errno);
}

// Owned by this user and writable by nobody else: what another user cannot have planted.
std::string ownershipProblem(const struct stat& status) {
    if (status.st_uid != ::geteuid())
        return "owned by user " + std::to_string(status.st_uid) + ", not by this user";
    if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) return "writable by other users";
    return {};
}

class FileDescriptor {
  public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }
    // Closes now, reporting the error close() gives (a delayed write error).
    bool close() {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0;
    }

  private:
    int fd_;
};

}  // namespace

Status preparePrivateFolder(const std::string& directory) {
    if (directory.empty()) return ioError("no cache folder");
    const std::filesystem::path folder(directory);
    std::error_code error;
    if (folder.has_parent_path()) std::filesystem::create_directories(folder.parent_path(), error);
    if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST)
        return ioError("cannot create the cache folder " + directory + ": " + reason());
    struct stat status {};
    if (::lstat(directory.c_str(), &status) != 0)
        return ioError("cannot inspect the cache folder " + directory + ": " + reason());
    if (!S_ISDIR(status.st_mode))
        return ioError("the cache folder " + directory + " is not a folder (or is a link)");
    if (const std::string problem = ownershipProblem(status); !problem.empty())
        return ioError("the cache folder " + directory + " is " + problem + ": not used");
    if ((status.st_mode & 0077) != 0 && ::chmod(directory.c_str(), 0700) != 0)
        return ioError("cannot make the cache folder " + directory + " private: " + reason());
    return Status::ok();
}

Result<std::vector<unsigned char>> readPrivateFile(const std::string& path, std::size_t maxBytes) {
    // O_NONBLOCK: a FIFO planted under an entry's name must not block the open.
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (file.get() < 0) return ioError("cannot open " + path + ": " + reason());
    struct stat status {};
    if (::fstat(file.get(), &status) != 0) return ioError("cannot inspect " + path);
    if (!S_ISREG(status.st_mode)) return ioError(path + " is not a regular file");
    if (const std::string problem = ownershipProblem(status); !problem.empty())
        return ioError(path + " is " + problem);
    if (static_cast<std::size_t>(status.st_size) > maxBytes)
        return ioError(path + " is larger than " + std::to_string(maxBytes) + " bytes");
    std::vector<unsigned char> bytes(static_cast<std::size_t>(status.st_size));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t step = ::read(file.get(), bytes.data() + done, bytes.size() - done);
        if (step < 0 && errno == EINTR) continue;
        if (step < 0) return ioError("cannot read " + path + ": " + reason());
        if (step == 0) break;  // shorter than its size said: the checks after this reject it
        done += static_cast<std::size_t>(step);
    }
    bytes.resize(done);
    return bytes;
}

Status writePrivateFile(const std::string& path, const std::vector<unsigned char>& bytes) {
    std::string temporary = path + ".tmp.XXXXXX";
    FileDescriptor file(::mkostemp(temporary.data(), O_CLOEXEC));
    if (file.get() < 0)
        return ioError("cannot create a temporary file for " + path + ": " + reason());
    std::size_t done = 0;
    bool ok = true;
    while (ok && done < bytes.size()) {
        const ssize_t step = ::write(file.get(), bytes.data() + done, bytes.size() - done);
        if (step < 0 && errno == EINTR) continue;
        ok = step > 0;
        if (ok) done += static_cast<std::size_t>(step);
    }
    std::string failure = ok ? std::string() : reason();
    if (!file.close() && ok) failure = reason();
    if (!failure.empty()) {
        ::unlink(temporary.c_str());
        return ioError("cannot write " + temporary + ": " + failure);
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string renameReason = reason();
        ::unlink(temporary.c_str());
        return ioError("cannot replace " + path + ": " + renameReason);
    }
    return Status::ok();
}

}  // namespace fusescope
