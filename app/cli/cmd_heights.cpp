// clusterlens-cli heights LINKAGE.csv --out HEIGHTS.csv: point heights (thesis definition 20).

#include <cstdio>

#include "args.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/text_file.hpp"
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
    std::string text = "index,height\n";
    for (std::size_t i = 0; i < heights.size(); ++i) {
        text += std::to_string(i) + ',';
        appendShortest(text, heights[i]);
        text += '\n';
    }
    writeTextFile(out, text);
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
