// CSV writer: a dataset's events with their text columns and appended channels.

#include <cstdio>
#include <memory>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"
#include "clusterlens/io/number_text.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "cancel_points.hpp"
#include "export_support.hpp"

namespace clusterlens {
namespace {

/// Quoted when the text reader would otherwise split, trim or skip it (a leading '#' is a comment).
void appendCell(std::string& out, const std::string& text) {
    if (!text.empty() && text.find_first_of(",\"\n\r \t") == std::string::npos && text.front() != '#') {
        out += text;
        return;
    }
    out += '"';
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    out += '"';
}

const Annotation* annotationWithRole(const Dataset& data, Annotation::Role role) {
    for (const Annotation& a : data.annotations)
        if (a.role == role) return &a;
    return nullptr;
}

std::string headerLine(const Dataset& data, const ExportSelection& selection) {
    std::vector<std::string> names;
    if (!data.pointNames.empty()) {
        const Annotation* column = annotationWithRole(data, Annotation::Role::PointNames);
        names.push_back(column ? column->name : "name");
    }
    names.insert(names.end(), data.features.begin(), data.features.end());
    if (!data.labels.empty()) {
        const Annotation* column = annotationWithRole(data, Annotation::Role::Labels);
        names.push_back(column ? column->name : "label");
    }
    for (const Annotation& a : data.annotations)
        if (a.role == Annotation::Role::Text) names.push_back(a.name);
    for (const ExtraChannel& channel : selection.channels) names.push_back(channel.name);
    std::string line;
    for (std::size_t k = 0; k < names.size(); ++k) {
        if (k > 0) line += ',';
        appendCell(line, names[k]);
    }
    return line + '\n';
}

/// Event i as one CSV line; `out` grows by it.
void appendRow(std::string& out, const Dataset& data, const ExportSelection& selection, std::size_t i) {
    bool first = true;
    auto separate = [&] {
        if (!first) out += ',';
        first = false;
    };
    if (!data.pointNames.empty()) {
        separate();
        appendCell(out, data.pointNames[i]);
    }
    const bool exact = data.exact.size() == data.values.size();
    for (std::size_t j = 0; j < data.d; ++j) {
        separate();
        if (exact) {
            appendShortest(out, data.exact[i * data.d + j]);
        } else {
            appendShortest(out, data.values[i * data.d + j]);
        }
    }
    if (!data.labels.empty()) {
        separate();
        const std::int32_t label = data.labels[i];
        if (label >= 0 && static_cast<std::size_t>(label) < data.labelNames.size()) {
            appendCell(out, data.labelNames[static_cast<std::size_t>(label)]);
        } else {
            out += std::to_string(label);
        }
    }
    for (const Annotation& a : data.annotations) {
        if (a.role != Annotation::Role::Text) continue;
        separate();
        appendCell(out, a.values[i]);
    }
    for (const ExtraChannel& channel : selection.channels) {
        separate();
        out += std::to_string(channel.values[i]);
    }
    out += '\n';
}

struct CsvFileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

void writeCsv(const std::string& path, const Dataset& data, const ExportSelection& selection) {
    data.validateShape();
    validateSelection(path, selection, data.n);
    const std::size_t events = detail::selectedCount(selection, data.n);
    writeFileAtomically(path, [&](const std::string& temp) {
        std::unique_ptr<std::FILE, CsvFileCloser> file(std::fopen(temp.c_str(), "w"));
        if (!file) throwFileError(path, "", "cannot open the file for writing");
        std::string buffer = headerLine(data, selection);
        bool ok = true;
        for (std::size_t k = 0; ok && k <= events; ++k) {
            if (buffer.size() >= (1u << 20) || k == events) {
                ok = std::fwrite(buffer.data(), 1, buffer.size(), file.get()) == buffer.size();
                buffer.clear();
            }
            detail::cancelPoint(selection.control, k);
            if (k < events) appendRow(buffer, data, selection, detail::selectedEvent(selection, k));
        }
        ok = std::fclose(file.release()) == 0 && ok;
        if (!ok) throwFileError(path, "", "write failed (disk full?)");
    });
}

}  // namespace clusterlens
