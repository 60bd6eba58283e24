// Writing the session file (session_file.hpp; layout in docs/session-format.md).

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"
#include "clusterlens/session/session_file.hpp"
#include "session/session_header.hpp"

#ifdef CLUSTERLENS_HAVE_HDF5

#include "session/h5_writer.hpp"

namespace clusterlens {
namespace {

using h5::Handle;
using h5::Writer;

/// Writes one kind of entry as numbered groups 0..count-1 of a group NAME with a `count` attribute:
/// user names never become HDF5 link names.
template <typename T, typename WriteOne>
void writeCollection(const Writer& w, const char* name, const std::vector<T>& entries, WriteOne writeOne) {
    const std::string object = std::string("/") + name;
    Handle group = w.group(w.root(), name, object);
    w.attribute(group.get(), object, "count", static_cast<std::int64_t>(entries.size()));
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string child = object + "/" + std::to_string(i);
        Handle entry = w.group(group.get(), std::to_string(i), child);
        writeOne(entry.get(), child, entries[i]);
    }
}

void writeInfo(const Writer& w, hid_t g, const std::string& object, const ResultInfo& info) {
    w.attribute(g, object, "name", info.name);
    w.attribute(g, object, "description", info.description);
    w.attribute(g, object, "transform", info.transform);
    w.attribute(g, object, "population", info.population);
    w.strings(g, object, "features", info.features);
    w.array(g, object, "members", info.members);
}

void writeData(const Writer& w, const DatasetReference& data) {
    Handle g = w.group(w.root(), "data", "/data");
    w.attribute(g.get(), "/data", "path", data.path);
    w.attribute(g.get(), "/data", "file_size", static_cast<std::int64_t>(data.fileSize));
    w.attribute(g.get(), "/data", "sha256", data.sha256);
    w.attribute(g.get(), "/data", "n", static_cast<std::int64_t>(data.n));
    w.attribute(g.get(), "/data", "d", static_cast<std::int64_t>(data.d));
    w.strings(g.get(), "/data", "features", data.features);
    const DatasetReadSpec& spec = data.read;
    Handle read = w.group(g.get(), "read", "/data/read");
    w.attribute(read.get(), "/data/read", "transform", spec.transform);
    w.attribute(read.get(), "/data/read", "compensate", static_cast<std::int64_t>(spec.compensate ? 1 : 0));
    w.attribute(read.get(), "/data/read", "h5_dataset", spec.h5Dataset);
    w.attribute(read.get(), "/data/read", "embedding", spec.embedding);
    w.attribute(read.get(), "/data/read", "label_column", spec.labelColumn);
    w.attribute(read.get(), "/data/read", "subsample", static_cast<std::int64_t>(spec.subsample));
    w.attribute(read.get(), "/data/read", "seed", static_cast<std::int64_t>(spec.seed));
    w.strings(read.get(), "/data/read", "columns", spec.columns);
    std::vector<std::string> channels;
    std::vector<double> cofactors;
    for (const ChannelCofactor& c : spec.cofactors) {
        channels.push_back(c.channel);
        cofactors.push_back(c.cofactor);
    }
    w.strings(read.get(), "/data/read", "cofactor_channels", channels);
    w.array(read.get(), "/data/read", "cofactor_values", cofactors);
    if (!data.embedded) return;
    Handle embedded = w.group(g.get(), "embedded", "/data/embedded");
    w.matrix(embedded.get(), "/data/embedded", "values", data.embedded->values.data(), data.n, data.d);
    w.strings(embedded.get(), "/data/embedded", "features", data.embedded->features);
}

void writeResults(const Writer& w, const Session& s) {
    writeCollection(w, "linkages", s.linkages, [&](hid_t g, const std::string& o, const LinkageResult& r) {
        writeInfo(w, g, o, r.info);
        w.attribute(g, o, "leaf_count", static_cast<std::int64_t>(r.linkage.leafCount));
        std::vector<std::int64_t> a, b, size;
        std::vector<double> height;
        for (const Merge& m : r.linkage.merges) {
            a.push_back(m.a);
            b.push_back(m.b);
            height.push_back(m.height);
            size.push_back(m.size);
        }
        w.array(g, o, "a", a);
        w.array(g, o, "b", b);
        w.array(g, o, "height", height);
        w.array(g, o, "size", size);
    });
    writeCollection(w, "labelings", s.labelings, [&](hid_t g, const std::string& o, const LabelingResult& r) {
        writeInfo(w, g, o, r.info);
        w.array(g, o, "labels", r.labels);
        w.strings(g, o, "cluster_names", r.clusterNames);
        w.strings(g, o, "cluster_colours", r.clusterColours);
    });
    writeCollection(w, "dpc", s.dpc, [&](hid_t g, const std::string& o, const DpcResult& r) {
        writeInfo(w, g, o, r.info);
        w.attribute(g, o, "dc", r.dc);
        w.attribute(g, o, "dc_percent", r.dcPercent);
        w.attribute(g, o, "dc_method", r.dcMethod);
        w.attribute(g, o, "kernel", r.kernel);
        w.array(g, o, "rho", r.rho);
        w.array(g, o, "delta", r.delta);
        w.array(g, o, "gamma", r.gamma);
        w.array(g, o, "nearest_higher", r.nearestHigher);
        w.array(g, o, "peaks", r.peaks);
        w.array(g, o, "halo", r.halo);
    });
    writeCollection(w, "vat", s.vat, [&](hid_t g, const std::string& o, const VatEntry& r) {
        writeInfo(w, g, o, r.info);
        w.attribute(g, o, "metric", r.metric);
        w.array(g, o, "order", r.order);
        w.array(g, o, "cut", r.cut);
    });
}

void writeComparisonsAndPopulations(const Writer& w, const Session& s) {
    writeCollection(w, "comparisons", s.comparisons, [&](hid_t g, const std::string& o, const ComparisonResult& r) {
        writeInfo(w, g, o, r.info);
        w.attribute(g, o, "labeling_a", r.labelingA);
        w.attribute(g, o, "labeling_b", r.labelingB);
        w.attribute(g, o, "matching", r.matching);
        w.attribute(g, o, "ari", r.ari);
        w.attribute(g, o, "nmi", r.nmi);
        w.attribute(g, o, "f_measure", r.fMeasure);
        std::vector<std::int32_t> a, b;
        std::vector<double> f1;
        for (const MatchedPair& p : r.pairs) {
            a.push_back(p.a);
            b.push_back(p.b);
            f1.push_back(p.f1);
        }
        w.array(g, o, "pair_a", a);
        w.array(g, o, "pair_b", b);
        w.array(g, o, "pair_f1", f1);
    });
    writeCollection(w, "populations", s.populations, [&](hid_t g, const std::string& o, const Population& p) {
        w.attribute(g, o, "name", p.name);
        w.attribute(g, o, "parent", p.parent);
        w.attribute(g, o, "colour", p.colour);
        w.attribute(g, o, "visible", static_cast<std::int64_t>(p.visible ? 1 : 0));
        w.attribute(g, o, "definition", p.definition);
        w.array(g, o, "members", p.members);
    });
}

void writeHdf5(const std::string& tempPath, const std::string& path, const Session& session) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Writer w(tempPath, path, session_detail::kHeaderBytes);
    w.attribute(w.root(), "/", "format", std::string(kSessionFormatId));
    w.attribute(w.root(), "/", "schema_version", static_cast<std::int64_t>(kSessionSchemaVersion));
    w.attribute(w.root(), "/", "app_version", std::string(CLUSTERLENS_VERSION));
    writeData(w, session.data);
    writeResults(w, session);
    writeComparisonsAndPopulations(w, session);
    w.array(w.root(), "", "view_state", std::vector<std::uint8_t>(session.viewState.begin(), session.viewState.end()));
    w.close();
}

}  // namespace

void writeSession(const std::string& path, const Session& session) {
    validateSession(session, path);
    writeFileAtomically(path, [&](const std::string& tempPath) {
        writeHdf5(tempPath, path, session);
        session_detail::sealFile(tempPath, path, CLUSTERLENS_VERSION);
    });
}

}  // namespace clusterlens

#else  // CLUSTERLENS_HAVE_HDF5

namespace clusterlens {

void writeSession(const std::string& path, const Session& /*session*/) {
    throw InvalidInput(path + ": this build has no HDF5 support, so sessions cannot be saved");
}

}  // namespace clusterlens

#endif  // CLUSTERLENS_HAVE_HDF5
