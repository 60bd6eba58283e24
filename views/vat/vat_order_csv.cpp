#include "vat/vat_order_csv.hpp"

#include <charconv>
#include <cstdio>
#include <memory>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {

namespace {

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

/// Appends the shortest text of `value` that reads back to the same number.
template <class T>
void appendNumber(std::string& line, T value) {
    char text[32];
    const auto result = std::to_chars(text, text + sizeof(text), value);
    line.append(text, result.ptr);
}

}  // namespace

void writeVatOrderCsv(const std::string& path, const VatResult& vat, const std::vector<std::int64_t>* events,
                      JobControl* control) {
    if (events && vat.order.size() > events->size())
        throwFileError(path, "", "the VAT order has more points than its population has events");
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    bool ok = std::fputs("position,index,cut\n", file.get()) >= 0;
    std::string line;
    for (std::size_t k = 0; ok && k < vat.order.size(); ++k) {
        if (control && k % 65536 == 0) control->checkCancelled();
        line.clear();
        appendNumber(line, k);
        line += ',';
        appendNumber(line, events ? (*events)[static_cast<std::size_t>(vat.order[k])] : vat.order[k]);
        line += ',';
        appendNumber(line, k < vat.cut.size() ? vat.cut[k] : 0.0);
        line += '\n';
        ok = std::fwrite(line.data(), 1, line.size(), file.get()) == line.size();
    }
    ok = ok && std::fflush(file.get()) == 0;
    if (!ok) throwFileError(path, "", "could not write the whole file (disk full?)");
    if (std::fclose(file.release()) != 0) throwFileError(path, "", "could not close the file");
}

}  // namespace clusterlens::views
