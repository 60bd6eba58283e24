#pragma once
// The session model: everything a biologist keeps of one analysis — which data file (and how it was
// read), every named result, the named populations, and the GUI's view state — as plain values that
// the CLI and the GUI share. Reading and writing it is session_file.hpp; set algebra and statistics of
// populations are population.hpp.
//
// Index convention (one rule for every object): an index that names an event is an index of the whole
// dataset as read with `DatasetReference::read` (0..n-1). A result computed on a population stores the
// population's members (ascending); its per-point arrays then hold one entry per member, in member
// order. The one exception is a linkage, whose leaves follow scipy's convention over the points it
// clustered: leaf k is the k-th member (or event k when it ran on all events).
//
// Names of results and populations are arbitrary user text (slashes, unicode); they are unique within
// their kind (a new entry with an existing name replaces it: see putNamed).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/io/read_options.hpp"

namespace clusterlens {

/// A per-channel arcsinh cofactor that overrides the transform's default for one channel.
struct ChannelCofactor {
    std::string channel;    ///< feature name as read from the file
    double cofactor = 5.0;  ///< > 0; 0 = the channel is left as read (scatter channels kept linear)
};

/// How the data file was read and prepared, so that it can be read again identically.
struct DatasetReadSpec {
    std::vector<std::string> columns;        ///< --columns (names or 1-based numbers); empty = all
    std::string transform;                   ///< --transform spec ("asinh:150", "zscore"); empty = none
    std::vector<ChannelCofactor> cofactors;  ///< per-channel overrides of an asinh transform
    bool compensate = false;                 ///< FCS $SPILLOVER compensation applied
    std::string h5Dataset;                   ///< --dataset (HDF5 path of the matrix); empty = auto
    std::string embedding;                   ///< --embedding (h5ad obsm name); empty = X
    std::string labelColumn;                 ///< --label-column; empty = none
    std::uint64_t subsample = 0;             ///< --subsample N; 0 = all events
    std::uint64_t seed = 1;                  ///< --seed of the subsample
};

/// The reader options of a spec (the parts the file readers take; columns, transform and subsample are
/// applied after reading).
ReadOptions readOptionsOf(const DatasetReadSpec& spec);

/// The analysed matrix itself, so that a session can be mailed without its data file. n x d float32,
/// row-major, exactly the values the analyses saw (read options already applied: whoever uses it must
/// not apply DatasetReference::read again). Memory 4·n·d bytes.
struct EmbeddedData {
    std::vector<float> values;          ///< n*d
    std::vector<std::string> features;  ///< d names
};

/// The data file a session belongs to. n, d and features describe the prepared matrix (after columns,
/// transform and subsample), which is what every result indexes.
struct DatasetReference {
    std::string path;            ///< absolute path of the data file when the session was made
    std::uint64_t fileSize = 0;  ///< bytes
    std::string sha256;          ///< 64 lowercase hex digits of the file's bytes (file_hash.hpp)
    DatasetReadSpec read;
    std::uint64_t n = 0;
    std::uint64_t d = 0;
    std::vector<std::string> features;  ///< d names
    std::optional<EmbeddedData> embedded;
};

/// What every stored result carries besides its numbers.
struct ResultInfo {
    std::string name;                   ///< unique within its kind, any text
    std::string description;            ///< free text ("MHCA centroid t=0.5 on 44,140 events")
    std::vector<std::string> features;  ///< features it was computed on (to tell stale results)
    std::string transform;              ///< transform spec it was computed on
    std::string population;             ///< population it ran on; empty = all events
    /// Ascending whole-dataset indices of the events it ran on; empty = all n events.
    std::vector<std::int64_t> members;
};

/// A hierarchical clustering. linkage.leafCount = members.size() (or n when members is empty).
struct LinkageResult {
    ResultInfo info;
    Linkage linkage;
};

/// A flat clustering of the whole dataset: n labels, -1 = noise or not in the population.
/// clusterNames / clusterColours are empty or hold one entry per label value 0..K-1; colours are
/// "#rrggbb" (lowercase or uppercase hex).
struct LabelingResult {
    ResultInfo info;
    std::vector<std::int32_t> labels;
    std::vector<std::string> clusterNames;
    std::vector<std::string> clusterColours;
};

/// A density-peaks run (density_peaks.hpp). rho, delta, gamma, nearestHigher and halo hold one entry
/// per point it ran on (m = members.size(), or n); nearestHigher and peaks are whole-dataset indices
/// (-1 for the densest point's nearestHigher). halo is empty or m flags (1 = halo / noise).
struct DpcResult {
    ResultInfo info;
    double dc = 0.0;
    double dcPercent = 0.0;  ///< requested percentile; 0 when dc was given
    std::string dcMethod;    ///< "user", "exact" or "sampled"
    std::string kernel;      ///< "cutoff" or "gaussian"
    std::vector<double> rho;
    std::vector<double> delta;
    std::vector<double> gamma;
    std::vector<std::int64_t> nearestHigher;
    std::vector<std::int64_t> peaks;  ///< chosen peaks, in the order they were chosen
    std::vector<std::uint8_t> halo;
};

/// A VAT ordering (vat.hpp) of m points: order[k] is the whole-dataset index at position k, cut[k]
/// the Prim edge weight that added it (cut[0] = 0).
struct VatEntry {
    ResultInfo info;
    std::string metric;  ///< "euclidean", "sqeuclidean", "manhattan", "cosine", "precomputed"
    std::vector<std::int64_t> order;
    std::vector<double> cut;
};

/// The comparison of two stored labelings (compare/agreement.hpp): the summary numbers only.
struct ComparisonResult {
    ResultInfo info;
    std::string labelingA;  ///< name of a LabelingResult
    std::string labelingB;
    std::string matching;  ///< "hungarian" or "greedy"
    double ari = 0.0;
    double nmi = 0.0;
    double fMeasure = 0.0;
    std::vector<MatchedPair> pairs;
};

/// A named set of events. A child's members lie within its parent's.
struct Population {
    std::string name;
    std::string parent;              ///< name of the parent population; empty = a root (parent is all events)
    std::string colour = "#808080";  ///< "#rrggbb"
    bool visible = true;
    std::string definition;             ///< how it was made, for people: "gate on CD3 vs CD4", "A AND NOT B"
    std::vector<std::int64_t> members;  ///< ascending, unique whole-dataset indices
};

/// A whole analysis. Plain value: copy it to snapshot (undo), compare it field by field.
struct Session {
    DatasetReference data;
    std::vector<LinkageResult> linkages;
    std::vector<LabelingResult> labelings;
    std::vector<DpcResult> dpc;
    std::vector<VatEntry> vat;
    std::vector<ComparisonResult> comparisons;
    std::vector<Population> populations;
    std::string viewState;   ///< opaque UTF-8 (JSON) owned by the GUI, stored verbatim
    std::string appVersion;  ///< version of the program that wrote the file (filled by readSession)
};

inline const std::string& entryName(const Population& p) {
    return p.name;
}
template <typename T>
const std::string& entryName(const T& result) {
    return result.info.name;
}

/// The entry called `name`, or nullptr. O(entries).
template <typename T>
const T* findNamed(const std::vector<T>& entries, std::string_view name) {
    for (const T& entry : entries)
        if (entryName(entry) == name) return &entry;
    return nullptr;
}
template <typename T>
T* findNamed(std::vector<T>& entries, std::string_view name) {
    for (T& entry : entries)
        if (entryName(entry) == name) return &entry;
    return nullptr;
}

/// Replaces the entry of the same name in place (keeping its position), else appends.
template <typename T>
void putNamed(std::vector<T>& entries, T entry) {
    if (T* existing = findNamed(entries, entryName(entry)))
        *existing = std::move(entry);
    else
        entries.push_back(std::move(entry));
}

/// Removes the entry called `name`; returns whether there was one.
template <typename T>
bool removeNamed(std::vector<T>& entries, std::string_view name) {
    for (auto it = entries.begin(); it != entries.end(); ++it)
        if (entryName(*it) == name) {
            entries.erase(it);
            return true;
        }
    return false;
}

/// Checks every invariant stated above: unique names per kind, n·d embedded values, members ascending
/// and in [0, n), array lengths (labels n; DPC and VAT arrays m), indices in range, linkages valid trees
/// over m leaves, colours "#rrggbb", parents that exist, children within their parent, no cycles of
/// parents, comparisons naming stored labelings. O(size of the session). Throws InvalidInput
/// "SOURCE: OBJECT: REASON" at the first violation.
void validateSession(const Session& session, const std::string& source);

/// Throws InvalidInput naming `path` unless the file at `path` has the SHA-256 recorded in `data`
/// (reads the whole file once, checking `control` every 1 MiB when given: a cancel() throws Cancelled).
void requireSameDataFile(const DatasetReference& data, const std::string& path, const JobControl* control = nullptr);

}  // namespace clusterlens
