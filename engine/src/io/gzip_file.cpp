#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/job_control.hpp"
#include "io/cancel_points.hpp"

namespace clusterlens {
namespace {

/// The file's bytes, read in blocks of 1 MiB with a look at `control` (when given) before each.
std::string readRaw(const std::string& path, const JobControl* control) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throwFileError(path, "", "cannot open the file for reading");
    std::string bytes;
    if (!detail::readAll(in, bytes, control)) throwFileError(path, "", "read error");
    return bytes;
}

std::string gunzip(const std::string& path, const std::string& compressed, const JobControl* control) {
    z_stream stream{};
    // 15 + 32: accept gzip or zlib headers; concatenated gzip members are handled by the loop.
    if (inflateInit2(&stream, 15 + 32) != Z_OK) throwFileError(path, "", "cannot initialise gzip decoder");
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&stream, [](z_stream* s) { inflateEnd(s); });
    std::string out;
    char buffer[1 << 16];
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    stream.avail_in = static_cast<uInt>(compressed.size());
    for (;;) {
        if (control != nullptr) control->checkCancelled();  // every 64 KiB inflated
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        int status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - stream.avail_out);
        if (status == Z_STREAM_END) {
            if (stream.avail_in == 0) break;
            inflateReset(&stream);  // another gzip member follows
            continue;
        }
        if (status != Z_OK) {
            throwFileError(
                path, "byte " + std::to_string(stream.total_in),
                std::string("corrupt or truncated gzip data (") + (stream.msg ? stream.msg : "zlib error") + ")");
        }
        if (stream.avail_in == 0 && stream.avail_out != 0)
            throwFileError(path, "byte " + std::to_string(stream.total_in), "gzip data ends early (truncated file)");
    }
    return out;
}

}  // namespace

std::string readFileMaybeGzip(const std::string& path, JobControl* control) {
    std::string raw = readRaw(path, control);
    if (raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f && static_cast<unsigned char>(raw[1]) == 0x8b)
        return gunzip(path, raw, control);
    return raw;
}

}  // namespace clusterlens
