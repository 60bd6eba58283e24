// clusterlens-cli heights LINKAGE.csv --out HEIGHTS.csv: point heights (thesis definition 20).

#include <cstdio>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {

int runHeights(const Arguments& argv) {
    Args args(argv, {"--json"}, {"--out"});
    args.expectPositional({"LINKAGE.csv"});
    const std::string out = args.required("--out");
    Stopwatch clock;
    const Linkage linkage = readLinkageCsv(args.positional()[0]);
    const std::vector<double> heights = pointHeights(linkage);
    std::FILE* file = std::fopen(out.c_str(), "w");
    if (!file) throwFileError(out, "", "cannot open the file for writing");
    std::fprintf(file, "index,height\n");
    for (std::size_t i = 0; i < heights.size(); ++i) std::fprintf(file, "%zu,%.17g\n", i, heights[i]);
    if (std::fclose(file) != 0) throwFileError(out, "", "write failed (disk full?)");
    if (args.flag("--json"))
        std::printf("%s\n", Json::object()
                                .set("n", heights.size())
                                .set("out", out)
                                .set("backend", "cpu")
                                .set("seconds", Json::object().set("heights", clock.seconds()))
                                .dump()
                                .c_str());
    return 0;
}

} // namespace clusterlens::cli
