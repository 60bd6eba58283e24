#include "dendrogram/dendrogram_newick.hpp"

#include <cstdio>
#include <fstream>
#include <utility>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {

namespace {

constexpr std::size_t kNewickCancelStride = 1 << 16;

void writeLength(std::ostream& out, const DendrogramLayout& layout, std::int32_t node) {
    const std::int32_t parent = layout.parent[static_cast<std::size_t>(node)];
    if (parent < 0) return;
    char text[32];
    const double length =
        layout.height[static_cast<std::size_t>(parent)] - layout.height[static_cast<std::size_t>(node)];
    std::snprintf(text, sizeof text, ":%.17g", length);
    out << text;
}

}  // namespace

std::string newickLabel(const std::string& name) {
    if (!name.empty() && name.find_first_of(" \t\n()[]':;,") == std::string::npos) return name;
    std::string quoted = "'";
    for (char c : name) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    return quoted + "'";
}

void writeNewick(std::ostream& out, const DendrogramLayout& layout, const std::vector<std::string>* names,
                 JobControl* control) {
    // Each entry is a node and how many of its children were written: 0 opens it, 1 writes the
    // comma between the children, 2 closes it.
    std::vector<std::pair<std::int32_t, int>> stack{{layout.root(), 0}};
    std::size_t steps = 0;
    while (!stack.empty()) {
        if (control && ++steps % kNewickCancelStride == 0) control->checkCancelled();
        auto& [node, done] = stack.back();
        if (layout.isLeaf(node)) {
            const auto id = static_cast<std::size_t>(node);
            out << newickLabel(names && id < names->size() ? (*names)[id] : std::to_string(node));
            writeLength(out, layout, node);
            stack.pop_back();
            continue;
        }
        const std::size_t row = layout.row(node);
        if (done == 0) {
            out << '(';
            done = 1;
            stack.push_back({layout.left[row], 0});
        } else if (done == 1) {
            out << ',';
            done = 2;
            stack.push_back({layout.right[row], 0});
        } else {
            out << ')';
            writeLength(out, layout, node);
            stack.pop_back();
        }
    }
    out << ";\n";
}

void writeNewickFile(const std::string& path, const DendrogramLayout& layout, const std::vector<std::string>* names,
                     JobControl* control) {
    std::ofstream file(path, std::ios::binary);
    if (!file) throwFileError(path, "", "cannot open the file for writing");
    writeNewick(file, layout, names, control);
    file.flush();
    if (!file) throwFileError(path, "", "write failed (disk full?)");
}

}  // namespace clusterlens::views
