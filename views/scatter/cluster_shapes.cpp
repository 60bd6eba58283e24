#include "scatter/cluster_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace clusterlens::views {

std::vector<ClusterShape> clusterShapes(const std::vector<float>& positions, const std::vector<float>& labels,
                                        std::size_t count) {
    std::map<int, ClusterShape> byLabel;
    for (std::size_t k = 0; k < count; ++k) {
        const int label = static_cast<int>(labels[k]);
        if (label < 0) continue;
        ClusterShape& s = byLabel[label];
        s.label = label;
        ++s.count;
        s.meanU += positions[2 * k];
        s.meanV += positions[2 * k + 1];
    }
    for (auto& [label, s] : byLabel) {
        s.meanU /= static_cast<double>(s.count);
        s.meanV /= static_cast<double>(s.count);
    }
    for (std::size_t k = 0; k < count; ++k) {
        const int label = static_cast<int>(labels[k]);
        if (label < 0) continue;
        ClusterShape& s = byLabel[label];
        const double du = positions[2 * k] - s.meanU, dv = positions[2 * k + 1] - s.meanV;
        s.cuu += du * du;
        s.cuv += du * dv;
        s.cvv += dv * dv;
    }
    std::vector<ClusterShape> shapes;
    for (auto& [label, s] : byLabel) {
        if (s.count < 3) continue;
        const double n1 = static_cast<double>(s.count - 1);
        s.cuu /= n1;
        s.cuv /= n1;
        s.cvv /= n1;
        shapes.push_back(s);
    }
    return shapes;
}

QPolygonF shapeOutline(const ClusterShape& shape, const std::function<QPointF(double, double)>& map, int segments) {
    const double r = std::sqrt(kShapeRadius2);
    const double l11 = std::sqrt(std::max(0.0, shape.cuu));
    const double l21 = l11 > 0.0 ? shape.cuv / l11 : 0.0;
    // Without spread in u, the cluster lies on a vertical line: its v spread alone.
    const double l22 = std::sqrt(std::max(0.0, l11 > 0.0 ? shape.cvv - l21 * l21 : shape.cvv));
    QPolygonF outline;
    outline.reserve(segments + 1);
    for (int s = 0; s <= segments; ++s) {
        const double t = 2.0 * std::numbers::pi * s / segments, c = std::cos(t), sn = std::sin(t);
        outline << map(shape.meanU + r * l11 * c, shape.meanV + r * (l21 * c + l22 * sn));
    }
    return outline;
}

}  // namespace clusterlens::views
