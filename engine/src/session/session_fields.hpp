#pragma once
// Internal to the session writer and reader: the fields of every kind of session object, in file order
// (docs/session-format.md), listed once. The writer and the reader each pass an adaptor `io` and the
// object (const when writing), so both walk the same names and types:
//   io.attribute(name, field)   a scalar attribute: std::string, double, an unsigned count or bool
//   io.array(name, field)       a 1-D dataset: std::vector of strings or of numbers
//   io.columns(rows, what, column(name, &Row::member)...)   rows stored as one array per member, of
//                                 equal length (`what` names the arrays when they are not)
//   io.child(name)              the adaptor of a child group
//   io.collection(name, entries)  numbered groups 0..count-1 of a group, each written by visitFields

#include <type_traits>

#include "clusterlens/session/session.hpp"

namespace clusterlens::session_detail {

/// A session object of type T, const (when writing) or not (when reading).
template <typename Object, typename T>
concept Field = std::is_same_v<std::remove_const_t<Object>, T>;

/// One member of a row type stored as its own array `name`.
template <typename Row, typename Member>
struct Column {
    const char* name;
    Member Row::*member;
};
template <typename Row, typename Member>
Column<Row, Member> column(const char* name, Member Row::*member) {
    return {name, member};
}

template <typename IO, Field<ResultInfo> Info>
void visitFields(IO& io, Info& info) {
    io.attribute("name", info.name);
    io.attribute("description", info.description);
    io.attribute("transform", info.transform);
    io.attribute("population", info.population);
    io.array("features", info.features);
    io.array("members", info.members);
}

template <typename IO, Field<DatasetReadSpec> Spec>
void visitFields(IO& io, Spec& spec) {
    io.attribute("transform", spec.transform);
    io.attribute("compensate", spec.compensate);
    io.attribute("h5_dataset", spec.h5Dataset);
    io.attribute("embedding", spec.embedding);
    io.attribute("label_column", spec.labelColumn);
    io.attribute("subsample", spec.subsample);
    io.attribute("seed", spec.seed);
    io.array("columns", spec.columns);
    io.columns(spec.cofactors, "cofactor channels and values", column("cofactor_channels", &ChannelCofactor::channel),
               column("cofactor_values", &ChannelCofactor::cofactor));
}

/// The data reference without its embedded copy (which only the writer and reader know how to size).
template <typename IO, Field<DatasetReference> Data>
void visitFields(IO& io, Data& data) {
    io.attribute("path", data.path);
    io.attribute("file_size", data.fileSize);
    io.attribute("sha256", data.sha256);
    io.attribute("n", data.n);
    io.attribute("d", data.d);
    io.array("features", data.features);
    auto read = io.child("read");
    visitFields(read, data.read);
}

template <typename IO, Field<LinkageResult> Result>
void visitFields(IO& io, Result& r) {
    visitFields(io, r.info);
    io.attribute("leaf_count", r.linkage.leafCount);
    io.columns(r.linkage.merges, "the merge arrays a, b, height and size", column("a", &Merge::a),
               column("b", &Merge::b), column("height", &Merge::height), column("size", &Merge::size));
}

template <typename IO, Field<LabelingResult> Result>
void visitFields(IO& io, Result& r) {
    visitFields(io, r.info);
    io.array("labels", r.labels);
    io.array("cluster_names", r.clusterNames);
    io.array("cluster_colours", r.clusterColours);
}

template <typename IO, Field<DpcResult> Result>
void visitFields(IO& io, Result& r) {
    visitFields(io, r.info);
    io.attribute("dc", r.dc);
    io.attribute("dc_percent", r.dcPercent);
    io.attribute("dc_method", r.dcMethod);
    io.attribute("kernel", r.kernel);
    io.array("rho", r.rho);
    io.array("delta", r.delta);
    io.array("gamma", r.gamma);
    io.array("nearest_higher", r.nearestHigher);
    io.array("peaks", r.peaks);
    io.array("halo", r.halo);
}

template <typename IO, Field<VatEntry> Result>
void visitFields(IO& io, Result& r) {
    visitFields(io, r.info);
    io.attribute("metric", r.metric);
    io.array("order", r.order);
    io.array("cut", r.cut);
}

template <typename IO, Field<ComparisonResult> Result>
void visitFields(IO& io, Result& r) {
    visitFields(io, r.info);
    io.attribute("labeling_a", r.labelingA);
    io.attribute("labeling_b", r.labelingB);
    io.attribute("matching", r.matching);
    io.attribute("ari", r.ari);
    io.attribute("nmi", r.nmi);
    io.attribute("f_measure", r.fMeasure);
    io.columns(r.pairs, "the pair arrays", column("pair_a", &MatchedPair::a), column("pair_b", &MatchedPair::b),
               column("pair_f1", &MatchedPair::f1));
}

template <typename IO, Field<Population> Result>
void visitFields(IO& io, Result& p) {
    io.attribute("name", p.name);
    io.attribute("parent", p.parent);
    io.attribute("colour", p.colour);
    io.attribute("visible", p.visible);
    io.attribute("definition", p.definition);
    io.array("members", p.members);
}

/// Every result collection, in file order.
template <typename IO, Field<Session> S>
void visitCollections(IO& io, S& s) {
    io.collection("linkages", s.linkages);
    io.collection("labelings", s.labelings);
    io.collection("dpc", s.dpc);
    io.collection("vat", s.vat);
    io.collection("comparisons", s.comparisons);
    io.collection("populations", s.populations);
}

}  // namespace clusterlens::session_detail
