#include "result_csv.hpp"

#include <string>

#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/text_file.hpp"

namespace clusterlens::cli {

void writeDpcCsv(const std::string& path, const DpcResult& r) {
    std::string text = "index,rho,delta,nearest_higher,gamma\n";
    const auto& members = r.info.members;
    for (std::size_t i = 0; i < r.rho.size(); ++i) {
        text += std::to_string(members.empty() ? static_cast<std::int64_t>(i) : members[i]);
        for (const double value : {r.rho[i], r.delta[i]}) text += ',', appendShortest(text, value);
        text += ',' + std::to_string(r.nearestHigher[i]) + ',';
        appendShortest(text, r.gamma[i]);
        text += '\n';
    }
    writeTextFile(path, text);
}

void writeOrderCsv(const std::string& path, const VatEntry& r) {
    std::string text = "position,index,cut\n";
    for (std::size_t k = 0; k < r.order.size(); ++k) {
        text += std::to_string(k) + ',' + std::to_string(r.order[k]) + ',';
        appendShortest(text, r.cut[k]);
        text += '\n';
    }
    writeTextFile(path, text);
}

}  // namespace clusterlens::cli
