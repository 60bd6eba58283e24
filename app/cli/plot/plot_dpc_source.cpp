#include "plot/plot_dpc_source.hpp"

#include <QFileInfo>

#include <cstdlib>

#include "clusterlens/io/dpc_csv.hpp"
#include "clusterlens/session/population.hpp"
#include "plot/plot_session.hpp"
#include "session/session_results.hpp"

namespace clusterlens::cli {

PlotDpc plotDpc(const Args& args) {
    PlotDpc dpc;
    const auto session = plotSession(args, {"DPC.csv"});
    if (session) {
        const DpcResult& stored = sessionResult(args, *session, session->session.dpc, "--name", "DPC result");
        dpc.result = views::densityPeaksOf(stored);
        dpc.members = stored.info.members;
        dpc.storedPeaks = dpc.members.empty() ? stored.peaks : indicesToPositions(stored.peaks, dpc.members);
        dpc.halo = stored.halo;
        dpc.name = QString::fromStdString(stored.info.name);
        dpc.stored = true;
        return dpc;
    }
    const std::string& path = args.positional()[0];
    const DpcResult table = readDpcTable(path);
    dpc.result = views::densityPeaksOf(table);
    dpc.members = table.info.members;
    dpc.name = QFileInfo(QString::fromStdString(path)).completeBaseName();
    return dpc;
}

std::vector<std::int32_t> dpcLabels(const PlotDpc& dpc, const std::vector<std::int64_t>& peaks) {
    std::vector<std::int32_t> labels = assignFromPeaks(*dpc.result, peaks);
    if (peaks == dpc.storedPeaks && dpc.halo.size() == labels.size())
        for (std::size_t i = 0; i < labels.size(); ++i)
            if (dpc.halo[i]) labels[i] = -1;
    return labels;
}

std::vector<std::int64_t> dpcPositions(const PlotDpc& dpc, const std::vector<std::string>& indices,
                                       const char* option) {
    const std::size_t n = dpc.result->rho.size();
    std::vector<std::int64_t> positions;
    for (const std::string& text : indices) {
        char* end = nullptr;
        const long long index = std::strtoll(text.c_str(), &end, 10);
        std::int64_t position = -1;
        if (!text.empty() && *end == '\0' && index >= 0)
            position = dpc.members.empty() ? (static_cast<std::size_t>(index) < n ? index : -1)
                                           : indicesToPositions({static_cast<std::int64_t>(index)}, dpc.members)[0];
        if (position < 0)
            throw UsageError(std::string(option) + ": '" + text + "' is not an index of the table's points (" +
                             (dpc.members.empty() ? "0.." + std::to_string(n - 1)
                                                  : "the " + std::to_string(n) + " events of the population") +
                             ")");
        positions.push_back(position);
    }
    return positions;
}

}  // namespace clusterlens::cli
