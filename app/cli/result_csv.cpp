#include "result_csv.hpp"

#include <cstdio>

#include "clusterlens/errors.hpp"

namespace clusterlens::cli {
namespace {

std::FILE* openForWriting(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    return file;
}

void finish(const std::string& path, std::FILE* file) {
    if (std::fclose(file) != 0) throwFileError(path, "", "write failed (disk full?)");
}

}  // namespace

void writeDpcCsv(const std::string& path, const DpcResult& r) {
    std::FILE* file = openForWriting(path);
    std::fprintf(file, "index,rho,delta,nearest_higher,gamma\n");
    const auto& members = r.info.members;
    for (std::size_t i = 0; i < r.rho.size(); ++i)
        std::fprintf(file, "%lld,%.17g,%.17g,%lld,%.17g\n",
                     static_cast<long long>(members.empty() ? static_cast<std::int64_t>(i) : members[i]), r.rho[i],
                     r.delta[i], static_cast<long long>(r.nearestHigher[i]), r.gamma[i]);
    finish(path, file);
}

void writeOrderCsv(const std::string& path, const VatEntry& r) {
    std::FILE* file = openForWriting(path);
    std::fprintf(file, "position,index,cut\n");
    for (std::size_t k = 0; k < r.order.size(); ++k)
        std::fprintf(file, "%zu,%lld,%.17g\n", k, static_cast<long long>(r.order[k]), r.cut[k]);
    finish(path, file);
}

}  // namespace clusterlens::cli
