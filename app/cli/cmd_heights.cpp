// clusterlens-cli heights (LINKAGE.csv [--linkage-format scipy|thesis|hclust] | --session FILE --linkage NAME)
// --out HEIGHTS.csv: point heights (thesis definition 20). A stored linkage of a population gives its
// members' whole-dataset indices. LINKAGE.csv may come from the thesis program or R (linkage_import.hpp).

#include <cstdio>

#include "args.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/text_file.hpp"
#include "clusterlens/session/session_file.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "session_run.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {

int heightsCommand(const Arguments& argv) {
    Args args(argv, {"--json"}, {"--out", "--session", "--linkage", "--linkage-format"});
    args.expectPositional(args.has("--session") ? std::vector<std::string>{} : std::vector<std::string>{"LINKAGE.csv"});
    const std::string out = args.required("--out");
    if (args.has("--session") != args.has("--linkage"))
        throw UsageError("--session FILE and --linkage NAME go together");
    Stopwatch clock;
    LinkageResult stored;
    if (args.has("--session"))
        stored = namedOrThrow(readSession(args.value("--session")).linkages, args.value("--linkage"),
                              args.value("--session"), "linkage");
    const Linkage linkage = args.has("--session") ? stored.linkage : readLinkageFrom(args, args.positional()[0]);
    const std::vector<std::int64_t>& members = stored.info.members;
    const std::vector<double> heights = pointHeights(linkage);
    std::string text = "index,height\n";
    for (std::size_t i = 0; i < heights.size(); ++i) {
        text += std::to_string(members.empty() ? static_cast<std::int64_t>(i) : members[i]) + ',';
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

}  // namespace clusterlens::cli
