#pragma once
// Newick export of a dendrogram (phylogenetics tools, R's ape::read.tree, Python's ete/Bio.Phylo).
// Branch length = parent height - child height, exactly as the linkage says: an inversion gives a
// negative length rather than a silently altered tree. Leaves are named by point name when the
// dataset has names, else by their index.

#include <ostream>
#include <string>
#include <vector>

#include "clusterlens/job_control.hpp"
#include "dendrogram/dendrogram_layout.hpp"

namespace clusterlens::views {

/// Writes the tree in the leaf order of `layout`, terminated by ';' and a newline. Walks with an
/// explicit stack (10^6 leaves in a chain are fine). O(N); polls `control`.
void writeNewick(std::ostream& out, const DendrogramLayout& layout, const std::vector<std::string>* names = nullptr,
                 JobControl* control = nullptr);

/// writeNewick() into a file; throws InvalidInput naming the path when it cannot be written.
void writeNewickFile(const std::string& path, const DendrogramLayout& layout,
                     const std::vector<std::string>* names = nullptr, JobControl* control = nullptr);

/// A Newick label: the text itself, or single-quoted (quotes doubled) when it holds characters
/// Newick reserves.
std::string newickLabel(const std::string& name);

}  // namespace clusterlens::views
