#pragma once
// Helpers shared by the GoogleTest executables.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace clusterlens::test {

/// Absolute path of a file under tests/data.
std::string dataPath(const std::string& relative);

/// A fresh empty directory under the system temp dir, removed when the object dies.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (m_path / name).string(); }
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

/// While alive, every write that makes a file of this process larger than `bytes` fails (EFBIG, as
/// ENOSPC on a full disk would), without the SIGXFSZ signal that would end the process.
class FileSizeLimit {
public:
    explicit FileSizeLimit(std::uint64_t bytes);
    ~FileSizeLimit();
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    std::uint64_t m_previousLimit = 0;
    void (*m_previousHandler)(int) = nullptr;
};

/// Writes bytes to a file (binary).
void writeFile(const std::string& path, const std::string& bytes);
/// Reads a whole file (binary).
std::string readFile(const std::string& path);

/// Pearson correlation of two equally long series (point heights of two linkages, say).
double pearson(const std::vector<double>& x, const std::vector<double>& y);

/// Seed for randomised tests: $CLUSTERLENS_TEST_SEED if set, else a fixed default; printed by the caller.
std::uint64_t testSeed(std::uint64_t fallback = 20261121);

}  // namespace clusterlens::test
