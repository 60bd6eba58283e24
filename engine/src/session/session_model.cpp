// Invariants of the session model (session.hpp), checked before every write and after every read.

#include <algorithm>
#include <cctype>
#include <set>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/session/population.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens {
namespace {

struct Checker {
    const Session& session;
    const std::string& source;
    std::uint64_t n;

    [[noreturn]] void fail(const std::string& object, const std::string& reason) const {
        throwFileError(source, object, reason);
    }
    void require(bool ok, const std::string& object, const std::string& reason) const {
        if (!ok) fail(object, reason);
    }
    static std::string count(std::size_t value) { return std::to_string(value); }

    void lengthIs(std::size_t actual, std::size_t expected, const std::string& object, const std::string& what) const {
        require(actual == expected, object, what + " has " + count(actual) + " entries, expected " + count(expected));
    }

    /// Members valid; returns m (the number of points the result covers).
    std::size_t points(const ResultInfo& info, const std::string& object) const {
        validateMembers(info.members, n, source + ": " + object + ": members");
        return info.members.empty() ? n : info.members.size();
    }

    /// True when `index` is one of the points a result covers.
    bool covers(const ResultInfo& info, std::int64_t index) const {
        if (index < 0 || static_cast<std::uint64_t>(index) >= n) return false;
        return info.members.empty() || std::binary_search(info.members.begin(), info.members.end(), index);
    }

    template <typename T>
    void uniqueNames(const std::vector<T>& entries, const std::string& kind) const {
        std::set<std::string> seen;
        for (const T& entry : entries) {
            require(!entryName(entry).empty(), kind, "an entry has an empty name");
            require(seen.insert(entryName(entry)).second, kind + " '" + entryName(entry) + "'",
                    "the name is used twice");
        }
    }

    void data() const {
        const DatasetReference& ref = session.data;
        require(ref.sha256.empty() || isSha256(ref.sha256), "data", "sha256 is not 64 lowercase hex digits");
        lengthIs(ref.features.size(), ref.d, "data", "the feature list");
        if (!ref.embedded) return;
        lengthIs(ref.embedded->values.size(), ref.n * ref.d, "data/embedded", "the value array");
        lengthIs(ref.embedded->features.size(), ref.d, "data/embedded", "the feature list");
    }

    static bool isSha256(const std::string& text) {
        return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
                   return std::isxdigit(static_cast<unsigned char>(c)) && !std::isupper(static_cast<unsigned char>(c));
               });
    }

    void colour(const std::string& text, const std::string& object) const {
        const bool ok = text.size() == 7 && text[0] == '#' && std::all_of(text.begin() + 1, text.end(), [](char c) {
                            return std::isxdigit(static_cast<unsigned char>(c)) != 0;
                        });
        require(ok, object, "colour '" + text + "' is not #rrggbb");
    }

    void linkage(const LinkageResult& r) const {
        const std::string object = "linkage '" + r.info.name + "'";
        const std::size_t m = points(r.info, object);
        require(r.linkage.leafCount == m, object,
                "has " + count(r.linkage.leafCount) + " leaves for " + count(m) + " points");
        r.linkage.validate(source + ": " + object);
    }

    void labeling(const LabelingResult& r) const {
        const std::string object = "labeling '" + r.info.name + "'";
        points(r.info, object);
        lengthIs(r.labels.size(), n, object, "the label array");
        std::int32_t maxLabel = -1;
        for (std::size_t i = 0; i < r.labels.size(); ++i) {
            const std::int32_t label = r.labels[i];
            require(label >= -1, object, "event " + count(i) + " has label " + std::to_string(label) + " (below -1)");
            require(label == -1 || covers(r.info, static_cast<std::int64_t>(i)), object,
                    "event " + count(i) + " is not a member but has label " + std::to_string(label));
            maxLabel = std::max(maxLabel, label);
        }
        const auto clusters = static_cast<std::size_t>(maxLabel + 1);
        require(r.clusterNames.empty() || r.clusterNames.size() >= clusters, object,
                "names " + count(r.clusterNames.size()) + " of " + count(clusters) + " clusters");
        require(r.clusterColours.empty() || r.clusterColours.size() >= clusters, object,
                "colours " + count(r.clusterColours.size()) + " of " + count(clusters) + " clusters");
        for (const std::string& c : r.clusterColours) colour(c, object);
    }

    void dpc(const DpcResult& r) const {
        const std::string object = "DPC result '" + r.info.name + "'";
        const std::size_t m = points(r.info, object);
        lengthIs(r.rho.size(), m, object, "rho");
        lengthIs(r.delta.size(), m, object, "delta");
        lengthIs(r.gamma.size(), m, object, "gamma");
        lengthIs(r.nearestHigher.size(), m, object, "nearest_higher");
        if (!r.halo.empty()) lengthIs(r.halo.size(), m, object, "halo");
        for (std::uint8_t flag : r.halo) require(flag <= 1, object, "a halo flag is neither 0 nor 1");
        for (std::int64_t j : r.nearestHigher)
            require(j == -1 || covers(r.info, j), object,
                    "nearest_higher " + std::to_string(j) + " is not one of its points");
        for (std::int64_t p : r.peaks)
            require(covers(r.info, p), object, "peak " + std::to_string(p) + " is not one of its points");
        require(r.kernel == "cutoff" || r.kernel == "gaussian", object,
                "kernel '" + r.kernel + "' is not cutoff or gaussian");
        require(r.dcMethod == "user" || r.dcMethod == "exact" || r.dcMethod == "sampled", object,
                "dc method '" + r.dcMethod + "' is not user, exact or sampled");
    }

    void vat(const VatEntry& r) const {
        const std::string object = "VAT result '" + r.info.name + "'";
        const std::size_t m = points(r.info, object);
        lengthIs(r.order.size(), m, object, "order");
        lengthIs(r.cut.size(), m, object, "cut");
        std::vector<char> seen(n, 0);
        for (std::int64_t index : r.order) {
            require(covers(r.info, index), object, "order holds " + std::to_string(index) + ", not one of its points");
            require(!seen[static_cast<std::size_t>(index)], object, "order holds " + std::to_string(index) + " twice");
            seen[static_cast<std::size_t>(index)] = 1;
        }
    }

    void comparison(const ComparisonResult& r) const {
        const std::string object = "comparison '" + r.info.name + "'";
        points(r.info, object);
        for (const std::string* name : {&r.labelingA, &r.labelingB})
            require(findNamed(session.labelings, *name) != nullptr, object,
                    "labeling '" + *name + "' is not in the session");
        require(r.matching == "hungarian" || r.matching == "greedy", object,
                "matching '" + r.matching + "' is not hungarian or greedy");
    }

    void population(const Population& p) const {
        const std::string object = "population '" + p.name + "'";
        validateMembers(p.members, n, source + ": " + object);
        colour(p.colour, object);
        if (p.parent.empty()) return;
        require(p.parent != p.name, object, "is its own parent");
        const Population* parent = findNamed(session.populations, p.parent);
        require(parent != nullptr, object, "parent '" + p.parent + "' is not in the session");
        std::size_t steps = 0;
        for (const Population* up = parent; up != nullptr && !up->parent.empty();
             up = findNamed(session.populations, up->parent))
            require(++steps <= session.populations.size(), object, "its parents form a cycle");
        require(isSubset(p.members, parent->members), object, "has events outside its parent '" + p.parent + "'");
    }
};

}  // namespace

ReadOptions readOptionsOf(const DatasetReadSpec& spec) {
    ReadOptions options;
    options.h5Dataset = spec.h5Dataset;
    options.labelColumn = spec.labelColumn;
    options.embedding = spec.embedding;
    options.compensate = spec.compensate;
    return options;
}

void validateSession(const Session& session, const std::string& source) {
    const Checker check{session, source, session.data.n};
    check.data();
    check.uniqueNames(session.linkages, "linkage");
    check.uniqueNames(session.labelings, "labeling");
    check.uniqueNames(session.dpc, "DPC result");
    check.uniqueNames(session.vat, "VAT result");
    check.uniqueNames(session.comparisons, "comparison");
    check.uniqueNames(session.populations, "population");
    for (const LinkageResult& r : session.linkages) check.linkage(r);
    for (const LabelingResult& r : session.labelings) check.labeling(r);
    for (const DpcResult& r : session.dpc) check.dpc(r);
    for (const VatEntry& r : session.vat) check.vat(r);
    for (const ComparisonResult& r : session.comparisons) check.comparison(r);
    for (const Population& p : session.populations) check.population(p);
}

void requireSameDataFile(const DatasetReference& data, const std::string& path, const JobControl* control) {
    const std::string actual = sha256File(path, control);
    if (actual != data.sha256)
        throwFileError(path, "",
                       "is not the data file of this session (SHA-256 " + actual.substr(0, 12) +
                           "... differs from the "
                           "session's " +
                           (data.sha256.empty() ? std::string("(none)") : data.sha256.substr(0, 12) + "...") +
                           ", recorded for " + data.path + ")");
}

}  // namespace clusterlens
