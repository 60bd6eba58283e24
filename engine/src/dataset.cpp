#include "clusterlens/dataset.hpp"

#include <cmath>

#include "clusterlens/errors.hpp"

namespace clusterlens {

long Dataset::featureIndex(const std::string& name) const {
    for (std::size_t j = 0; j < features.size(); ++j)
        if (features[j] == name) return static_cast<long>(j);
    return -1;
}

void Dataset::validateShape() const {
    auto fail = [&](const std::string& why) { throw InvalidInput(provenance.path + ": inconsistent dataset: " + why); };
    if (values.size() != n * d) fail("value count " + std::to_string(values.size()) + " != N*D");
    if (features.size() != d) fail("feature name count differs from D");
    if (!descriptions.empty() && descriptions.size() != d) fail("description count differs from D");
    if (!pointNames.empty() && pointNames.size() != n) fail("point name count differs from N");
    if (!labels.empty() && labels.size() != n) fail("label count differs from N");
    for (const Embedding& e : embeddings)
        if (e.n != n || e.values.size() != e.n * e.d) fail("embedding " + e.name + " has the wrong shape");
    for (const Annotation& a : annotations)
        if (a.role == Annotation::Role::Text && a.values.size() != n)
            fail("annotation " + a.name + " count differs from N");
}

std::size_t Dataset::countNonFinite() const {
    std::size_t count = 0;
    for (float v : values) count += std::isfinite(v) ? 0 : 1;
    return count;
}

}  // namespace clusterlens

namespace clusterlens {

std::vector<double> Dataset::valuesAsDouble() const {
    if (exact.size() == values.size()) return exact;
    return std::vector<double>(values.begin(), values.end());
}

}  // namespace clusterlens
