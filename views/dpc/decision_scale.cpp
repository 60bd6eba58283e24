#include "dpc/decision_scale.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterlens::views {

namespace {

double positiveFloor(const std::vector<double>& values) {
    double smallest = std::numeric_limits<double>::infinity();
    for (double v : values)
        if (v > 0.0 && v < smallest) smallest = v;
    return std::isfinite(smallest) ? smallest / 2.0 : 1.0;
}

}  // namespace

DecisionScale DecisionScale::of(const DensityPeaksResult& result, bool logRho, bool logDelta) {
    DecisionScale scale;
    scale.logRho = logRho;
    scale.logDelta = logDelta;
    scale.rhoFloor = positiveFloor(result.rho);
    scale.deltaFloor = positiveFloor(result.delta);
    return scale;
}

double DecisionScale::x(double rho) const {
    return logRho ? std::log10(std::max(rho, rhoFloor)) : rho;
}
double DecisionScale::y(double delta) const {
    return logDelta ? std::log10(std::max(delta, deltaFloor)) : delta;
}
double DecisionScale::rhoAt(double px) const {
    return logRho ? std::pow(10.0, px) : px;
}
double DecisionScale::deltaAt(double py) const {
    return logDelta ? std::pow(10.0, py) : py;
}

std::shared_ptr<const Dataset> decisionCoordinates(const DensityPeaksResult& result, const DecisionScale& scale) {
    auto data = std::make_shared<Dataset>();
    data->n = result.rho.size();
    data->d = 2;
    data->features = {"\u03c1 (local density)", "\u03b4 (to a denser point)"};
    data->values.resize(2 * data->n);
    for (std::size_t i = 0; i < data->n; ++i) {
        data->values[2 * i] = static_cast<float>(scale.x(result.rho[i]));
        data->values[2 * i + 1] = static_cast<float>(scale.y(result.delta[i]));
    }
    return data;
}

ScatterData decisionScatter(const Dataset& coordinates, const DecisionScale& scale,
                            std::shared_ptr<const LabelVector> labels) {
    ScatterRequest request;
    // The request holds the dataset shared; the coordinates outlive this call, so no copy is made.
    request.dataset = std::shared_ptr<const Dataset>(&coordinates, [](const Dataset*) {});
    request.mode = labels ? ColourMode::Labels : ColourMode::Density;
    request.labels = std::move(labels);
    ScatterData data = prepareScatter(request);
    data.xLog = scale.logRho;
    data.yLog = scale.logDelta;
    return data;
}

}  // namespace clusterlens::views
