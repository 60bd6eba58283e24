// clusterlens-cli info INPUT [--json]: shape, features, format and problems of a data file.

#include <cstdio>

#include "args.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {
namespace {

Json embeddingsJson(const Dataset& data) {
    Json list = Json::array();
    for (const Embedding& e : data.embeddings)
        list.push(Json::object().set("name", e.name).set("n", e.n).set("d", e.d));
    return list;
}

const char* roleName(Annotation::Role role) {
    switch (role) {
        case Annotation::Role::PointNames:
            return "point_names";
        case Annotation::Role::Labels:
            return "labels";
        case Annotation::Role::Text:
            break;
    }
    return "text";
}

/// The table's text columns: name and what they became.
Json annotationsJson(const Dataset& data) {
    Json list = Json::array();
    for (const Annotation& a : data.annotations)
        list.push(Json::object().set("name", a.name).set("role", roleName(a.role)));
    return list;
}

void printText(const Dataset& data) {
    std::printf("file:      %s\n", data.provenance.path.c_str());
    std::printf("format:    %s: %s\n", data.provenance.format.c_str(), data.provenance.detail.c_str());
    std::printf("points:    %zu\nfeatures:  %zu\n", data.n, data.d);
    for (std::size_t j = 0; j < data.d; ++j) {
        const bool described = !data.descriptions.empty() && !data.descriptions[j].empty();
        std::printf("  %3zu  %s%s%s\n", j + 1, data.features[j].c_str(), described ? "  " : "",
                    described ? data.descriptions[j].c_str() : "");
    }
    if (!data.labels.empty()) std::printf("labels:    %s\n", data.labelSource.c_str());
    for (const Annotation& a : data.annotations)
        std::printf("text column: %s (%s)\n", a.name.c_str(), roleName(a.role));
    for (const Embedding& e : data.embeddings) std::printf("embedding: %s (%zu x %zu)\n", e.name.c_str(), e.n, e.d);
    std::printf("non-finite values: %zu\n", data.nonFinite);
    for (const std::string& w : data.warnings) std::printf("warning: %s\n", w.c_str());
}

}  // namespace

int infoCommand(const Arguments& argv) {
    Args args(argv, kCommonFlags, kCommonValued);
    args.expectPositional({"INPUT"});
    const Backend backend = backendFrom(args);
    Stopwatch clock;
    // info inspects: NaN/Inf are counted and reported instead of refused.
    Dataset data = loadInput(args.positional()[0], args, true);
    const double readSeconds = clock.seconds();
    // Each warning is said once: in the text report, or on stderr beside the JSON (which lists them too,
    // for programs).
    if (!args.flag("--json")) {
        printText(data);
        return 0;
    }
    for (const std::string& w : data.warnings) std::fprintf(stderr, "clusterlens-cli: warning: %s\n", w.c_str());
    Json out = Json::object();
    out.set("file", data.provenance.path)
        .set("format", data.provenance.format)
        .set("detail", data.provenance.detail)
        .set("n", data.n)
        .set("d", data.d)
        .set("features", stringArray(data.features))
        .set("non_finite", data.nonFinite)
        .set("warnings", stringArray(data.warnings))
        .set("has_labels", !data.labels.empty())
        .set("label_source", data.labelSource)
        .set("embeddings", embeddingsJson(data))
        .set("annotations", annotationsJson(data))
        .set("transforms", stringArray(data.provenance.steps))
        .set("backend", backendDescription(resolveBackend(backend)))
        .set("seconds", Json::object().set("read", readSeconds));
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

}  // namespace clusterlens::cli
