#include "input.hpp"

#include <cstdio>
#include <optional>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/linkage_import.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"

namespace clusterlens::cli {

ReadOptions readOptionsFrom(const Args& args, bool allowNonFinite) {
    ReadOptions options;
    options.h5Dataset = args.value("--dataset");
    options.labelColumn = args.value("--label-column");
    options.embedding = args.value("--embedding");
    options.compensate = args.flag("--compensate");
    options.allowNonFinite = allowNonFinite || args.flag("--allow-non-finite");
    return options;
}

Dataset loadInput(const std::string& path, const Args& args, bool allowNonFinite) {
    Dataset data = readDataset(path, readOptionsFrom(args, allowNonFinite));
    try {
        if (args.has("--columns")) data = selectColumns(data, resolveColumns(data, args.list("--columns")));
        if (args.has("--transform")) data = applyTransformSpec(data, args.value("--transform"));
        if (args.has("--subsample")) data = subsample(data, args.count("--subsample", 0), args.count("--seed", 1));
    } catch (const InvalidInput& e) {
        throw UsageError(e.what());  // these messages name the option that was wrong
    }
    return data;
}

Linkage readLinkageFrom(const Args& args, const std::string& path) {
    std::optional<LinkageFormat> format;
    if (args.has("--linkage-format"))
        format = parseLinkageFormat(args.choice("--linkage-format", {"scipy", "thesis", "hclust"}, "scipy"));
    return readLinkage(path, format);
}

Backend backendFrom(const Args& args) {
    try {
        const Backend requested = parseBackend(args.value("--backend", "auto"));
        resolveBackend(requested);
        return requested;
    } catch (const InvalidInput& e) {
        throw UsageError(e.what());
    }
}

void printWarnings(const std::vector<std::string>& warnings) {
    for (const std::string& warning : warnings) std::fprintf(stderr, "clusterlens-cli: warning: %s\n", warning.c_str());
}

}  // namespace clusterlens::cli
