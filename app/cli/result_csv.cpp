#include "result_csv.hpp"

#include <string>

#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/text_file.hpp"

namespace clusterlens::cli {

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
