// clusterlens-cli export INPUT [--labels LABELS.csv] --out OUT.fcs|OUT.csv
// Writes the (transformed, column-selected) data with an optional cluster-id column: FCS 3.1 gets an
// extra parameter biologists can gate on in FlowJo, CSV an extra last column.

#include <cctype>
#include <cstdio>
#include <filesystem>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {

int runExport(const Arguments& argv) {
    Args args(argv, kCommonFlags, with(kCommonValued, {"--labels", "--label-name", "--out"}));
    args.expectPositional({"INPUT"});
    const std::string out = args.required("--out");
    std::string extension = std::filesystem::path(out).extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (extension != ".fcs" && extension != ".csv") throw UsageError("--out must end in .fcs or .csv");
    Stopwatch clock;
    const Dataset data = loadInput(args.positional()[0], args);
    std::vector<std::int32_t> labels;
    if (args.has("--labels")) labels = readLabels(args.value("--labels"), data.n);
    const std::string name = args.value("--label-name", extension == ".fcs" ? "ClusterLens_cluster" : "cluster");
    if (extension == ".fcs") writeFcs(out, data, labels, name);
    else writeCsv(out, data, labels, name);
    if (args.flag("--json"))
        std::printf("%s\n", Json::object()
                                .set("n", data.n)
                                .set("d", data.d + (labels.empty() ? 0 : 1))
                                .set("out", out)
                                .set("backend", "cpu")
                                .set("seconds", Json::object().set("export", clock.seconds()))
                                .dump()
                                .c_str());
    return 0;
}

} // namespace clusterlens::cli
