// Binary input of the thesis' GPU MHCA program: uint64 D, uint64 N, then N*D float64, row-major.

#include <cstdint>
#include <cstring>
#include <fstream>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"

namespace clusterlens {

Dataset readThesisBinary(const std::string& path, const ReadOptions& /*options*/) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throwFileError(path, "", "cannot open the file for reading");
    const auto fileSize = static_cast<std::uint64_t>(in.tellg());
    in.seekg(0);
    if (fileSize < 16) throwFileError(path, "header", "file is shorter than the 16-byte header (uint64 D, uint64 N)");
    std::uint64_t header[2] = {0, 0};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    const std::uint64_t d = header[0], n = header[1];
    if (d == 0 || d > (1u << 20)) throwFileError(path, "header", "implausible dimension D = " + std::to_string(d));
    if (n == 0) throwFileError(path, "header", "the header announces N = 0 points");
    const std::uint64_t payload = fileSize - 16;
    if (payload / 8 / d < n)
        throwFileError(path, "byte " + std::to_string(fileSize),
                       "file is truncated: header announces N = " + std::to_string(n) + ", D = " + std::to_string(d) +
                           " (" + std::to_string(n * d * 8 + 16) + " bytes) but the file has " +
                           std::to_string(fileSize) + " bytes");
    if (payload != n * d * 8)
        throwFileError(path, "byte " + std::to_string(16 + n * d * 8),
                       std::to_string(payload - n * d * 8) + " unexpected trailing bytes after N*D values");
    Dataset data;
    data.n = n;
    data.d = d;
    data.exact.resize(n * d);
    in.read(reinterpret_cast<char*>(data.exact.data()), static_cast<std::streamsize>(n * d * 8));
    if (!in) throwFileError(path, "data", "read error");
    data.values.assign(data.exact.begin(), data.exact.end());
    for (std::size_t j = 0; j < d; ++j) data.features.push_back("V" + std::to_string(j + 1));
    data.provenance.path = path;
    data.provenance.format = "bin";
    data.provenance.detail = "uint64 D, uint64 N, float64 row-major";
    return data;
}

}  // namespace clusterlens
