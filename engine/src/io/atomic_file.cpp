#include "clusterlens/io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens {
namespace {

namespace fs = std::filesystem;

/// A name in the target's folder, hidden and unique within this process and across processes.
std::string temporaryNameFor(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    const std::string name = "." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(counter.fetch_add(1));
    return (target.parent_path() / name).string();
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
    throwFileError(path, "", what + ": " + std::strerror(error));
}

/// fsync of a file or folder, so the data (or the rename) survives a power cut.
int syncPath(const std::string& path, int flags) {
    const int fd = ::open(path.c_str(), flags);
    if (fd < 0) return errno;
    const int result = ::fsync(fd) == 0 || errno == EINVAL ? 0 : errno;
    ::close(fd);
    return result;
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::function<void(const std::string& tempPath)>& write) {
    const fs::path target(path);
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) throwFileError(path, "", "the folder '" + folder.string() + "' does not exist");
    if (fs::is_directory(target, ec)) throwFileError(path, "", "is a folder, not a file");
    const std::string temp = temporaryNameFor(target.has_parent_path() ? target : fs::path(".") / target);
    try {
        write(temp);
        if (!fs::exists(temp, ec))
            throwFileError(path, "", "the file could not be created in '" + folder.string() + "'");
        if (const int error = syncPath(temp, O_RDONLY)) fail(path, "cannot flush the file to disk", error);
        if (std::rename(temp.c_str(), path.c_str()) != 0) fail(path, "cannot replace the file", errno);
    } catch (...) {
        std::remove(temp.c_str());
        throw;
    }
    syncPath(folder.string(), O_RDONLY | O_DIRECTORY);
}

}  // namespace clusterlens
