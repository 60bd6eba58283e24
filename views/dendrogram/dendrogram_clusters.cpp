#include "dendrogram/dendrogram_clusters.hpp"

#include <QObject>

namespace clusterlens::views {

namespace {

constexpr std::size_t kClustersCancelStride = 1 << 15;

}  // namespace

FeatureSelection selectFeatures(std::shared_ptr<const Dataset> dataset, const QStringList& names) {
    FeatureSelection selection;
    if (!dataset) return selection;
    for (const QString& name : names) {
        const long column = dataset->featureIndex(name.toStdString());
        if (column < 0) continue;
        selection.columns.push_back(static_cast<std::size_t>(column));
        selection.names << name;
    }
    selection.dataset = std::move(dataset);
    return selection;
}

ClusterTable summarizeCut(const DendrogramLayout& layout, const DendrogramCut& cut, const FeatureSelection& features,
                          JobControl* control) {
    ClusterTable table;
    table.clusters.resize(cut.roots.size());
    for (std::size_t id = 0; id < cut.roots.size(); ++id) {
        ClusterSummary& c = table.clusters[id];
        c.id = static_cast<int>(id);
        c.population = cut.colourOf(c.id);
        c.root = cut.roots[id];
        c.size = layout.size[static_cast<std::size_t>(c.root)];
        c.height = layout.height[static_cast<std::size_t>(c.root)];
    }
    if (!features.fits(layout)) return table;
    table.features = features.names;
    const Dataset& data = *features.dataset;
    const std::size_t f = features.columns.size();
    std::vector<double> sums(cut.roots.size() * f, 0.0);
    for (std::size_t i = 0; i < data.n; ++i) {
        if (control && i % kClustersCancelStride == 0) control->checkCancelled();
        double* row = sums.data() + static_cast<std::size_t>(cut.labels[i]) * f;
        const float* values = data.values.data() + i * data.d;
        for (std::size_t j = 0; j < f; ++j) row[j] += values[features.columns[j]];
    }
    for (ClusterSummary& c : table.clusters) {
        c.means.assign(sums.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(c.id) * f),
                       sums.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(c.id + 1) * f));
        for (double& m : c.means) m /= static_cast<double>(c.size);
    }
    return table;
}

std::vector<double> subtreeMeans(const DendrogramLayout& layout, std::int32_t node, const FeatureSelection& features) {
    if (!features.fits(layout)) return {};
    const Dataset& data = *features.dataset;
    const std::size_t f = features.columns.size();
    std::vector<double> means(f, 0.0);
    const auto begin = static_cast<std::size_t>(layout.first[static_cast<std::size_t>(node)]);
    const auto count = static_cast<std::size_t>(layout.size[static_cast<std::size_t>(node)]);
    for (std::size_t rank = begin; rank < begin + count; ++rank) {
        const float* values = data.values.data() + static_cast<std::size_t>(layout.order[rank]) * data.d;
        for (std::size_t j = 0; j < f; ++j) means[j] += values[features.columns[j]];
    }
    for (double& m : means) m /= static_cast<double>(count);
    return means;
}

QString cutClusterName(int id, int population) {
    return population >= 0 ? QObject::tr("cluster %1").arg(population) : QObject::tr("small (cluster %1)").arg(id);
}

}  // namespace clusterlens::views
