// clusterlens-cli session info FILE [--json]
// clusterlens-cli session get  FILE (--linkage NAME --out LINKAGE.csv | --labeling NAME --out LABELS.csv |
//                                    --population NAME --out MEMBERS.csv | --dpc NAME --out DPC.csv |
//                                    --vat NAME --out ORDER.csv)
// `get` writes with the writers of hca, kmeans, dpc and vat, so a stored result comes back byte for byte.

#include <algorithm>
#include <cstdio>

#include "args.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/io/dpc_csv.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/session/members_csv.hpp"
#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session_file.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "result_csv.hpp"
#include "session_run.hpp"

namespace clusterlens::cli {
namespace {

/// name, description and population of a result: the start of each of its entries in the listing.
Json base(const ResultInfo& info) {
    return Json::object()
        .set("name", info.name)
        .set("description", info.description)
        .set("population", info.population);
}

template <typename T>
Json namedList(const std::vector<T>& entries, Json (*describe)(const T&)) {
    Json list = Json::array();
    for (const T& entry : entries) list.push(describe(entry));
    return list;
}

Json linkageJson(const LinkageResult& r) {
    return base(r.info).set("leaves", r.linkage.leafCount).set("non_monotonic", r.linkage.inversionCount());
}

Json labelingJson(const LabelingResult& r) {
    std::int32_t top = -1;
    std::size_t noise = 0;
    for (std::int32_t label : r.labels) {
        top = std::max(top, label);
        noise += label == -1 ? 1 : 0;
    }
    return base(r.info).set("clusters", top + 1).set("noise", noise);
}

Json dpcJson(const DpcResult& r) {
    Json peaks = Json::array();
    for (std::int64_t p : r.peaks) peaks.push(p);
    return base(r.info)
        .set("points", r.rho.size())
        .set("dc", r.dc)
        .set("dc_method", r.dcMethod)
        .set("kernel", r.kernel)
        .set("peaks", peaks);
}

Json vatJson(const VatEntry& r) {
    return base(r.info).set("points", r.order.size()).set("metric", r.metric);
}

Json comparisonJson(const ComparisonResult& r) {
    return base(r.info)
        .set("labeling_a", r.labelingA)
        .set("labeling_b", r.labelingB)
        .set("matching", r.matching)
        .set("ari", r.ari)
        .set("nmi", r.nmi)
        .set("f_measure", r.fMeasure);
}

Json sessionJson(const Session& s) {
    const DatasetReference& d = s.data;
    Json populations = Json::array();
    for (const Population& p : s.populations) {
        const PopulationCounts counts = populationCounts(s, p);
        populations.push(Json::object()
                             .set("name", p.name)
                             .set("parent", p.parent)
                             .set("count", counts.count)
                             .set("percent_of_parent", counts.percentOfParent)
                             .set("percent_of_all", counts.percentOfAll)
                             .set("colour", p.colour)
                             .set("visible", p.visible)
                             .set("definition", p.definition));
    }
    return Json::object()
        .set("version", kSessionSchemaVersion)
        .set("app_version", s.appVersion)
        .set("data", Json::object()
                         .set("path", d.path)
                         .set("n", d.n)
                         .set("d", d.d)
                         .set("sha256", d.sha256)
                         .set("embedded", d.embedded.has_value())
                         .set("file_size", d.fileSize)
                         .set("features", stringArray(d.features))
                         .set("transform", d.read.transform))
        .set("linkages", namedList(s.linkages, linkageJson))
        .set("labelings", namedList(s.labelings, labelingJson))
        .set("dpc", namedList(s.dpc, dpcJson))
        .set("vat", namedList(s.vat, vatJson))
        .set("comparisons", namedList(s.comparisons, comparisonJson))
        .set("populations", populations);
}

template <typename T>
void printNames(const char* kind, const std::vector<T>& entries) {
    std::printf("%s: %zu\n", kind, entries.size());
    for (const T& entry : entries) std::printf("  %s\n", entryName(entry).c_str());
}

void printSession(const Session& s) {
    std::printf("data:      %s\n           %llu events x %llu features, sha256 %s%s\n", s.data.path.c_str(),
                static_cast<unsigned long long>(s.data.n), static_cast<unsigned long long>(s.data.d),
                s.data.sha256.c_str(), s.data.embedded ? ", data embedded" : "");
    printNames("linkages", s.linkages);
    printNames("labelings", s.labelings);
    printNames("dpc", s.dpc);
    printNames("vat", s.vat);
    printNames("comparisons", s.comparisons);
    std::printf("populations: %zu\n", s.populations.size());
    for (const Population& p : s.populations) {
        const PopulationCounts counts = populationCounts(s, p);
        std::printf("  %s%s%s: %zu events (%.2f %% of parent, %.2f %% of all)\n", p.name.c_str(),
                    p.parent.empty() ? "" : " in ", p.parent.c_str(), counts.count, counts.percentOfParent,
                    counts.percentOfAll);
    }
}

int sessionInfoCommand(const Arguments& argv) {
    Args args(argv, {"--json"}, {});
    args.expectPositional({"FILE"});
    const Session session = readSession(args.positional()[0]);
    if (args.flag("--json"))
        std::printf("%s\n", sessionJson(session).dump().c_str());
    else
        printSession(session);
    return 0;
}

int sessionGetCommand(const Arguments& argv) {
    const std::vector<std::string> kinds = {"--linkage", "--labeling", "--population", "--dpc", "--vat"};
    Args args(argv, {}, {"--linkage", "--labeling", "--population", "--dpc", "--vat", "--out"});
    args.expectPositional({"FILE"});
    const std::string out = args.required("--out");
    std::string kind;
    for (const std::string& k : kinds)
        if (args.has(k)) {
            if (!kind.empty()) throw UsageError("choose one of --linkage, --labeling, --population, --dpc, --vat");
            kind = k;
        }
    if (kind.empty()) throw UsageError("name what to get: --linkage, --labeling, --population, --dpc or --vat NAME");
    const std::string file = args.positional()[0];
    const Session s = readSession(file);
    const std::string name = args.value(kind);
    if (kind == "--linkage")
        writeLinkageCsv(out, namedOrThrow(s.linkages, name, file, "linkage").linkage);
    else if (kind == "--labeling")
        writeLabelsCsv(out, namedOrThrow(s.labelings, name, file, "labeling").labels);
    else if (kind == "--population")
        writeMembersCsv(out, namedOrThrow(s.populations, name, file, "population").members);
    else if (kind == "--dpc")
        writeDpcCsv(out, namedOrThrow(s.dpc, name, file, "DPC result"));
    else
        writeOrderCsv(out, namedOrThrow(s.vat, name, file, "VAT result"));
    return 0;
}

}  // namespace

int sessionCommand(const Arguments& argv) {
    if (argv.empty()) throw UsageError("expected session info FILE or session get FILE ...");
    const Arguments rest(argv.begin() + 1, argv.end());
    if (argv[0] == "info") return sessionInfoCommand(rest);
    if (argv[0] == "get") return sessionGetCommand(rest);
    throw UsageError("unknown session command '" + argv[0] + "' (info or get)");
}

}  // namespace clusterlens::cli
