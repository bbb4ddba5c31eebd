#include "model/file_kind.h"

#include <QFile>

#include <sys/stat.h>
#include <sys/statfs.h>

#include <linux/magic.h>

#include <array>
#include <utility>

namespace fusescope::model {

QString specialFileKind(const QString& path) {
    struct stat status {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0) return {};
    switch (status.st_mode & S_IFMT) {
        case S_IFCHR:
            return QStringLiteral("a character device");
        case S_IFBLK:
            return QStringLiteral("a block device");
        case S_IFIFO:
            return QStringLiteral("a FIFO (named pipe)");
        case S_IFSOCK:
            return QStringLiteral("a socket");
        default:
            return {};
    }
}

QString kernelFileSystemName(const QString& path) {
    struct statfs status {};
    if (::statfs(QFile::encodeName(path).constData(), &status) != 0) return {};
    static constexpr std::array<std::pair<long, const char*>, 9> kKernelFileSystems{{
        {PROC_SUPER_MAGIC, "proc"},
        {SYSFS_MAGIC, "sysfs"},
        {DEBUGFS_MAGIC, "debugfs"},
        {TRACEFS_MAGIC, "tracefs"},
        {SECURITYFS_MAGIC, "securityfs"},
        {CGROUP_SUPER_MAGIC, "cgroup"},
        {CGROUP2_SUPER_MAGIC, "cgroup2"},
        {DEVPTS_SUPER_MAGIC, "devpts"},
        {BPF_FS_MAGIC, "bpf"},
    }};
    for (const auto& [magic, name] : kKernelFileSystems)
        if (static_cast<long>(status.f_type) == magic) return QString::fromLatin1(name);
    return {};
}

}  // namespace fusescope::model
