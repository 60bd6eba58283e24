// Linkage files in any format the CLI reads (readLinkage: scipy's LINKAGE.csv, the thesis program's
// "i j distance", R's hclust merge + height; told apart by content), then what the CLI computes from a
// linkage it accepted: point heights and the monotonic fixes for display. A linkage that passed
// validation must be safe to use.

#include <cmath>

#include "clusterlens/hca/fix_monotonic.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "clusterlens/io/linkage_import.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    const std::string path = fuzz::writeInput(std::vector<std::uint8_t>(data, data + size), "linkage.csv");
    Linkage linkage;
    if (!fuzz::accepted([&] { linkage = readLinkage(path); })) return 0;
    if (pointHeights(linkage).size() != linkage.leafCount) fuzz::finding("point heights of the wrong length");
    for (const MonotonicFix method : {MonotonicFix::Eps, MonotonicFix::Halfway})
        for (const Merge& merge : fixNonMonotonic(linkage, method).merges)
            if (!std::isfinite(merge.height)) fuzz::finding("a fixed height is not finite");
    return 0;
}
