// The session file's header in HDF5's user block (session_header.hpp).

#include "session/session_header.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/job_control.hpp"
#include "io/cancel_points.hpp"
#include "clusterlens/session/session_file.hpp"

namespace clusterlens::session_detail {
namespace {

constexpr char kHdf5Signature[] = "\x89HDF\r\n\x1a\n";
constexpr std::size_t kSignatureBytes = 8;

std::string magicLine() {
    // (push_back: GCC 13 at -O2 warned of an out-of-bounds memcpy in the inlined `string + "\n"`)
    std::string line(kSessionFormatId);
    line.push_back('\n');
    return line;
}

bool hasSignatureAt(const std::string& bytes, std::size_t offset) {
    return bytes.size() >= offset + kSignatureBytes && bytes.compare(offset, kSignatureBytes, kHdf5Signature) == 0;
}

/// HDF5 looks for its signature at 0, 512, 1024, 2048, ...
bool looksLikeHdf5(const std::string& bytes) {
    for (std::size_t offset = 0; offset + kSignatureBytes <= bytes.size(); offset = offset == 0 ? 512 : 2 * offset)
        if (hasSignatureAt(bytes, offset)) return true;
    return false;
}

bool parseCount(const std::string& text, std::uint64_t& value) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
}

struct Header {
    std::uint64_t schema = 0;
    std::string app;
    std::uint64_t bytes = 0;
    std::string sha256;
};

/// The "key value" lines after the magic line; false when a line is missing or malformed.
bool parseHeader(const std::string& block, Header& header) {
    std::istringstream lines(block.substr(magicLine().size()));
    std::string line, schema, bytes;
    const auto field = [&](const char* key, std::string& value) {
        const std::string prefix = std::string(key) + " ";
        if (!std::getline(lines, line) || line.rfind(prefix, 0) != 0) return false;
        value = line.substr(prefix.size());
        return true;
    };
    return field("schema", schema) && parseCount(schema, header.schema) && field("app", header.app) &&
           field("bytes", bytes) && parseCount(bytes, header.bytes) && field("sha256", header.sha256);
}

/// The file's bytes, read in blocks of 1 MiB with a look at `control` (when given) before each.
std::string readWhole(const std::string& path, const JobControl* control = nullptr) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throwFileError(path, "", "cannot open the session file (missing or not readable)");
    std::string bytes;
    if (!detail::readAll(in, bytes, control)) throwFileError(path, "", "the session file could not be read");
    return bytes;
}

}  // namespace

void sealFile(const std::string& path, const std::string& displayPath, const std::string& appVersion) {
    const std::string bytes = readWhole(path);
    if (bytes.size() < kHeaderBytes) throwFileError(displayPath, "", "the session file was not written completely");
    std::string header = magicLine() + "schema " + std::to_string(kSessionSchemaVersion) + "\napp " + appVersion +
                         "\nbytes " + std::to_string(bytes.size()) + "\nsha256 " +
                         sha256Hex(bytes.data() + kHeaderBytes, bytes.size() - kHeaderBytes) + "\n";
    if (header.size() > kHeaderBytes) throwFileError(displayPath, "", "the version text is too long for the header");
    header.resize(kHeaderBytes, '\0');
    std::FILE* file = std::fopen(path.c_str(), "r+b");
    if (file == nullptr) throwFileError(displayPath, "", "cannot reopen the session file to seal it");
    const bool written = std::fwrite(header.data(), 1, header.size(), file) == header.size();
    if (std::fclose(file) != 0 || !written)
        throwFileError(displayPath, "", "the header could not be written (disk full?)");
}

std::string readVerifiedFile(const std::string& path, std::string& appVersion, const JobControl* control) {
    std::string bytes = readWhole(path, control);
    if (bytes.compare(0, magicLine().size(), magicLine()) != 0) {
        if (looksLikeHdf5(bytes))
            throwFileError(path, "", "is an HDF5 file but not a ClusterLens session (it has no session header)");
        throwFileError(path, "", "is not a ClusterLens session (not an HDF5 file)");
    }
    Header header;
    if (bytes.size() < kHeaderBytes || !parseHeader(bytes.substr(0, kHeaderBytes), header))
        throwFileError(path, "", "the session header is damaged");
    if (header.schema > static_cast<std::uint64_t>(kSessionSchemaVersion))
        throwFileError(path, "",
                       "was written by a newer ClusterLens (" + header.app + ", session schema " +
                           std::to_string(header.schema) + "); this version reads schema " +
                           std::to_string(kSessionSchemaVersion) + " and older: please update ClusterLens");
    if (header.schema < 1) throwFileError(path, "", "the session header is damaged (schema version 0)");
    if (header.bytes != bytes.size())
        throwFileError(path, "",
                       "the session file is damaged: it has " + std::to_string(bytes.size()) + " bytes, " +
                           std::to_string(header.bytes) + " were written" +
                           (bytes.size() < header.bytes ? " (truncated)" : ""));
    if (sha256Hex(bytes.data() + kHeaderBytes, bytes.size() - kHeaderBytes, control) != header.sha256)
        throwFileError(path, "",
                       "the session file is damaged: its content differs from what was written (checksum mismatch)");
    appVersion = header.app;
    return bytes;
}

bool hasSessionMagic(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string first(magicLine().size(), '\0');
    return in && in.read(first.data(), static_cast<std::streamsize>(first.size())) && first == magicLine();
}

}  // namespace clusterlens::session_detail
