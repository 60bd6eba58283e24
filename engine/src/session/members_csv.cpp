#include "clusterlens/session/members_csv.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>

#include "clusterlens/errors.hpp"

namespace clusterlens {

void writeMembersCsv(const std::string& path, const std::vector<std::int64_t>& members) {
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    std::fprintf(file, "index\n");
    for (std::int64_t index : members) std::fprintf(file, "%lld\n", static_cast<long long>(index));
    if (std::fclose(file) != 0) throwFileError(path, "", "write failed (disk full?)");
}

std::vector<std::int64_t> readMembersCsv(const std::string& path, std::size_t n) {
    std::ifstream in(path);
    if (!in) throwFileError(path, "", "cannot open the members file");
    std::string line;
    if (!std::getline(in, line) || (line != "index" && line != "index\r"))
        throwFileError(path, "line 1", "expected the header 'index'");
    std::vector<std::int64_t> members;
    for (std::size_t lineNo = 2; std::getline(in, line); ++lineNo) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const std::string where = "line " + std::to_string(lineNo);
        std::int64_t index = 0;
        const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), index);
        if (ec != std::errc() || ptr != line.data() + line.size())
            throwFileError(path, where, "'" + line + "' is not an event index");
        if (index < 0 || static_cast<std::uint64_t>(index) >= n)
            throwFileError(path, where, "event " + line + " lies outside the " + std::to_string(n) + " events");
        if (!members.empty() && index <= members.back())
            throwFileError(
                path, where,
                "indices must be ascending and unique (" + line + " after " + std::to_string(members.back()) + ")");
        members.push_back(index);
    }
    return members;
}

}  // namespace clusterlens
