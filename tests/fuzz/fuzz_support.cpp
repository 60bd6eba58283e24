#include "fuzz_support.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace clusterlens::fuzz {
namespace {

std::filesystem::path& scratchFolder() {
    static std::filesystem::path folder;
    return folder;
}

void removeScratch() {
    std::error_code ec;
    std::filesystem::remove_all(scratchFolder(), ec);
}

const std::filesystem::path& scratch() {
    std::filesystem::path& folder = scratchFolder();
    if (!folder.empty()) return folder;
    // Memory first: every input is written once, and a disk-backed /tmp costs milliseconds per write.
    const char* tmp = std::getenv("TMPDIR");
    std::error_code ec;
    const std::string base = std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
                                 ? "/dev/shm"
                                 : (tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
    std::string pattern = base + "/clusterlens-fuzz-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) finding("cannot make a scratch folder from " + pattern);
    folder = pattern;
    std::atexit(removeScratch);
    return folder;
}

}  // namespace

std::string scratchPath(const std::string& name) {
    return (scratch() / name).string();
}

std::string writeInput(const std::vector<std::uint8_t>& bytes, const std::string& name) {
    const std::string path = scratchPath(name);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) finding("cannot write the input to " + path);
    const bool written = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    if (std::fclose(file) != 0 || !written) finding("cannot write the input to " + path);
    return path;
}

void requireConsistent(const Dataset& data) {
    mustHold("a reader accepted an inconsistent dataset", [&] { data.validateShape(); });
    if (!data.exact.empty() && data.exact.size() != data.n * data.d)
        finding("exact holds " + std::to_string(data.exact.size()) +
                " values for N*D = " + std::to_string(data.n * data.d));
}

void noteRefusal(const InvalidInput& error) {
    static const bool verbose = std::getenv("CLUSTERLENS_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "refused: %s\n", error.what());
}

void finding(const std::string& what) {
    std::fprintf(stderr, "clusterlens fuzz finding: %s\n", what.c_str());
    std::abort();
}

}  // namespace clusterlens::fuzz
