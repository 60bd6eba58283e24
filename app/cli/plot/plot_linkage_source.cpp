#include "plot/plot_linkage_source.hpp"

#include <QFileInfo>

#include "input.hpp"

namespace clusterlens::cli {

PlotLinkage plotLinkage(const Args& args) {
    PlotLinkage tree;
    auto session = plotSession(args, {"LINKAGE.csv"});
    if (session) {
        const LinkageResult& stored = sessionResult(args, *session, session->session.linkages, "--name", "linkage");
        tree.linkage = stored.linkage;
        tree.members = stored.info.members;
        tree.name = QString::fromStdString(stored.info.name);
        tree.session = std::make_shared<const PlotSession>(std::move(*session));
    } else {
        tree.linkage = readLinkageFrom(args, args.positional()[0]);
        tree.name = QFileInfo(QString::fromStdString(args.positional()[0])).completeBaseName();
    }
    tree.layout = std::make_shared<const views::DendrogramLayout>(views::buildDendrogramLayout(tree.linkage));
    return tree;
}

std::shared_ptr<const views::DendrogramCut> plotCut(const Args& args, const PlotLinkage& tree) {
    const std::uint64_t leaves = tree.linkage.leafCount;
    const std::uint64_t minSize = args.count("--min-cluster-size", 1);
    if (!args.has("--cut-k")) {
        if (args.has("--min-cluster-size")) throw UsageError("--min-cluster-size needs --cut-k");
        return nullptr;
    }
    const std::uint64_t k = args.count("--cut-k", 1);
    if (k < 1 || k > leaves)
        throw UsageError("--cut-k must lie in 1.." + std::to_string(leaves) + ", got " + args.value("--cut-k"));
    if (minSize < 1 || minSize > leaves)
        throw UsageError("--min-cluster-size must lie in 1.." + std::to_string(leaves) + ", got " +
                         args.value("--min-cluster-size"));
    return std::make_shared<const views::DendrogramCut>(
        views::cutIntoPopulations(tree.linkage, *tree.layout, static_cast<int>(k), static_cast<std::size_t>(minSize)));
}

}  // namespace clusterlens::cli
