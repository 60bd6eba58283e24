// Defaults for a newly opened file (default_read_spec.hpp) on small synthetic datasets of each kind.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "clusterlens/io/default_read_spec.hpp"
#include "clusterlens/pca.hpp"
#include "clusterlens/session/session_data.hpp"

using namespace clusterlens;
using testing::HasSubstr;

namespace {

/// n x features.size() values v(i, j), as a reader would return them.
template <typename Value>
Dataset dataset(const std::string& format, const std::string& detail, const std::vector<std::string>& features,
                std::size_t n, Value v) {
    Dataset data;
    data.n = n;
    data.d = features.size();
    data.features = features;
    data.provenance.format = format;
    data.provenance.detail = detail;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < data.d; ++j) data.values.push_back(static_cast<float>(v(i, j)));
    return data;
}

std::vector<std::string> genes(std::size_t d) {
    std::vector<std::string> names;
    for (std::size_t j = 0; j < d; ++j) names.push_back("G" + std::to_string(j));
    return names;
}

/// Whole counts: every gene 1, except gene 3 (40 in even cells) and gene 7 (20 in odd cells).
double counts(std::size_t i, std::size_t j) {
    if (j == 3) return i % 2 == 0 ? 40 : 0;
    if (j == 7) return i % 2 == 1 ? 20 : 0;
    return 1;
}

}  // namespace

TEST(DefaultReadSpec, FlowFcsGetsCofactor150WithoutTimeAndWithItsSpillover) {
    const Dataset data =
        dataset("fcs", "FCS 3.0, $DATATYPE F, $CYT FACSAria, SPILL 4x4 spillover matrix present (not applied)",
                {"FSC-A", "SSC-A", "FITC-A", "PE-A", "Time"}, 3,
                [](std::size_t i, std::size_t j) { return 100.0 * static_cast<double>(i + j); });
    const DefaultReadSpec spec = proposeReadSpec(data);
    EXPECT_EQ(spec.kind, DataKind::FlowCytometry);
    EXPECT_EQ(spec.read.transform, "asinh:150");
    EXPECT_EQ(spec.read.columns, (std::vector<std::string>{"FSC-A", "SSC-A", "FITC-A", "PE-A"}));
    EXPECT_EQ(spec.excluded, (std::vector<std::string>{"Time"}));
    EXPECT_TRUE(spec.read.compensate);
    EXPECT_EQ(spec.scatter.embedding, "");
    EXPECT_EQ(spec.scatter.xName, "FSC-A");
    EXPECT_EQ(spec.scatter.yName, "SSC-A");
    EXPECT_THAT(spec.reason, HasSubstr("flow cytometry"));

    // The proposal is a read spec the session code applies as it is.
    const Dataset prepared = prepareData(data, spec.read);
    EXPECT_EQ(prepared.d, 4u);
    EXPECT_FLOAT_EQ(prepared.at(2, 3), static_cast<float>(std::asinh(500.0 / 150.0)));
}

TEST(DefaultReadSpec, MassCytometryFromMetalChannelsOrTheCytometerGetsCofactor5) {
    const Dataset byChannels = dataset("fcs", "FCS 3.0, $DATATYPE F",
                                       {"Time", "Event_length", "(Ce140)Di", "(Ir191)Di", "Nd142Dd", "Center", "Offset",
                                        "Width", "Residual", "beadDist"},
                                       2, [](std::size_t, std::size_t) { return 1.0; });
    const DefaultReadSpec spec = proposeReadSpec(byChannels);
    EXPECT_EQ(spec.kind, DataKind::MassCytometry);
    EXPECT_EQ(spec.read.transform, "asinh:5");
    EXPECT_EQ(spec.read.columns, (std::vector<std::string>{"(Ce140)Di", "(Ir191)Di", "Nd142Dd"}));
    EXPECT_EQ(spec.excluded.size(), 7u);
    EXPECT_FALSE(spec.read.compensate);
    EXPECT_EQ(spec.scatter.xName, "(Ce140)Di");
    EXPECT_EQ(spec.scatter.yName, "(Ir191)Di");
    EXPECT_THAT(spec.reason, HasSubstr("mass cytometry ((Ce140)Di)"));

    const Dataset byCytometer = dataset("fcs", "FCS 3.0, $DATATYPE F, $CYT Helios", {"CD3", "CD4"}, 2,
                                        [](std::size_t, std::size_t) { return 1.0; });
    EXPECT_EQ(proposeReadSpec(byCytometer).kind, DataKind::MassCytometry);
    EXPECT_TRUE(proposeReadSpec(byCytometer).read.columns.empty());  // nothing left out: every channel
}

TEST(DefaultReadSpec, ChannelNamesTellMassAndTimeLikeChannels) {
    for (const char* mass : {"(Ir191)Di", "Ir191Di", "191Ir_Di", "Nd142Dd", "Ir191", "191Ir", "(Y89)Di"})
        EXPECT_TRUE(isMassChannel(mass)) << mass;
    for (const char* other : {"V450-A", "V450", "B515", "CD45", "FSC-A", "Di", "(Xx)Di", "Ir1910Di", "Ir191Dix", ""})
        EXPECT_FALSE(isMassChannel(other)) << other;
    for (const char* time :
         {"Time", "TIME", "Event_length", "Event #", "beadDist", "FileNum", "Original_ID", "Cell_length"})
        EXPECT_TRUE(isTimeLikeChannel(time)) << time;
    for (const char* other : {"FSC-W", "SSC-H", "Timer", "CD3"}) EXPECT_FALSE(isTimeLikeChannel(other)) << other;
}

TEST(DefaultReadSpec, RawCountsAreNormalisedLoggedAndReducedWhenWide) {
    const Dataset wide = dataset("h5ad", "X as CSR", genes(150), 20, counts);
    const DefaultReadSpec spec = proposeReadSpec(wide);
    EXPECT_EQ(spec.kind, DataKind::CountMatrix);
    EXPECT_EQ(spec.read.transform, "normalize-total,log1p,pca:50");
    EXPECT_TRUE(spec.read.columns.empty());
    EXPECT_EQ(spec.scatter.embedding, "");
    EXPECT_EQ(spec.scatter.x, 3u);  // the two most variable genes
    EXPECT_EQ(spec.scatter.y, 7u);

    EXPECT_EQ(proposeReadSpec(dataset("10x-h5", "/matrix", genes(50), 20, counts)).read.transform,
              "normalize-total,log1p");
    EXPECT_EQ(proposeReadSpec(dataset("h5ad", "X as CSR", genes(kPcaMaxFeatures + 1), 2, counts)).read.transform,
              "normalize-total,log1p");
    const Dataset normalised = dataset("h5ad", "X as dense float32", genes(150), 4,
                                       [](std::size_t i, std::size_t j) { return 0.5 * static_cast<double>(i + j); });
    const DefaultReadSpec already = proposeReadSpec(normalised);
    EXPECT_EQ(already.read.transform, "pca:50");
    EXPECT_THAT(already.reason, HasSubstr("already normalised"));
}

TEST(DefaultReadSpec, AnEmbeddingIsTheScatterWithUmapFirst) {
    Dataset data = dataset("h5ad", "X as CSR", genes(20), 4, counts);
    data.embeddings = {{"X_pca", 4, 50, std::vector<float>(200)}, {"X_umap", 4, 2, std::vector<float>(8)}};
    const DefaultReadSpec spec = proposeReadSpec(data);
    EXPECT_EQ(spec.scatter.embedding, "X_umap");
    EXPECT_EQ(spec.scatter.x, 0u);
    EXPECT_EQ(spec.scatter.y, 1u);
    data.embeddings.pop_back();
    EXPECT_EQ(proposeReadSpec(data).scatter.embedding, "X_pca");
}

TEST(DefaultReadSpec, TablesAndEmbeddingsReadAsDataAreLeftAsTheyAre) {
    const Dataset table = dataset("csv", "", {"Time", "x", "y"}, 3, [](std::size_t i, std::size_t j) { return i * j; });
    const DefaultReadSpec spec = proposeReadSpec(table);
    EXPECT_EQ(spec.kind, DataKind::Table);
    EXPECT_EQ(spec.read.transform, "");
    EXPECT_TRUE(spec.read.columns.empty());
    EXPECT_EQ(spec.scatter.xName, "x");
    EXPECT_EQ(spec.scatter.yName, "y");

    const Dataset umap = dataset("h5ad", "obsm/X_umap as dense float32", {"X_umap_1", "X_umap_2"}, 3,
                                 [](std::size_t i, std::size_t) { return i; });
    EXPECT_EQ(proposeReadSpec(umap).kind, DataKind::Table);
    EXPECT_EQ(proposeReadSpec(umap).read.transform, "");

    const DefaultReadSpec single =
        proposeReadSpec(dataset("csv", "", {"x"}, 3, [](std::size_t i, std::size_t) { return i; }));
    EXPECT_EQ(single.scatter.x, 0u);
    EXPECT_EQ(single.scatter.y, 0u);
}
