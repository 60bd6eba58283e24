#include "clusterlens/hca/mhca.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

#include "clusterlens/errors.hpp"
#include "mhca_agglomerate.hpp"
#include "mhca_parallel.hpp"
#include "mhca_runs.hpp"

namespace clusterlens {

void validateMhcaInput(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options) {
    if (n < 2) throw InvalidInput("MHCA needs at least 2 points, got " + std::to_string(n));
    if (d == 0) throw InvalidInput("MHCA needs at least one feature (the data have 0 columns)");
    if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw InvalidInput("MHCA supports at most 2147483647 points, got " + std::to_string(n));
    if (!x) throw InvalidInput("MHCA got no data values");
    if (!(options.threshold > 0.0 && options.threshold <= 1.0)) {
        std::ostringstream message;
        message << "--threshold must be in (0, 1] (a fraction of the number of points), got " << options.threshold;
        throw InvalidInput(message.str());
    }
    if (!options.apriori.empty()) {
        if (options.apriori.size() != n)
            throw InvalidInput("--apriori: expected one group id per point (" + std::to_string(n) + "), got " +
                               std::to_string(options.apriori.size()));
        for (std::size_t i = 0; i < n; ++i)
            if (options.apriori[i] < 0)
                throw InvalidInput("--apriori: group ids must be 0 (no group) or positive; point " +
                                   std::to_string(i + 1) + " has " + std::to_string(options.apriori[i]));
    }
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j)
            if (!std::isfinite(x[i * d + j]))
                throw NonFiniteInput("MHCA needs finite values: point " + std::to_string(i + 1) + ", feature " +
                                     std::to_string(j + 1) + " is NaN or infinite; remove or impute it first");
}

Linkage mhcaCpu(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options, JobControl* control) {
    validateMhcaInput(x, n, d, options);
    mhca::WorkerPool pool;
    mhca::ProgressTracker progress(control, n - 1);
    progress.checkCancelled();
    if (!options.apriori.empty()) {
        if (auto linkage = mhca::clusterWithApriori(x, n, d, options, pool, progress)) return *linkage;
    }
    std::vector<std::int32_t> rows(n);
    std::iota(rows.begin(), rows.end(), 0);
    Linkage linkage;
    linkage.leafCount = n;
    linkage.merges = mhca::clusterPoints(x, d, std::move(rows), options, n, pool, progress);
    return linkage;
}

MhcaVariant parseMhcaVariant(const std::string& text) {
    if (text == "full") return MhcaVariant::Full;
    if (text == "centroid") return MhcaVariant::Centroid;
    throw InvalidInput("--variant: unknown value \"" + text + "\" (expected full or centroid)");
}

SubthresholdMode parseSubthresholdMode(const std::string& text) {
    if (text == "mahal") return SubthresholdMode::Mahal;
    if (text == "mahal0") return SubthresholdMode::Mahal0;
    if (text == "euclid") return SubthresholdMode::Euclid;
    if (text == "euclid-mahal" || text == "euclidMahal") return SubthresholdMode::EuclidMahal;
    throw InvalidInput("--subthreshold: unknown value \"" + text +
                       "\" (expected mahal, mahal0, euclid or euclid-mahal)");
}

const char* mhcaVariantName(MhcaVariant variant) {
    return variant == MhcaVariant::Full ? "full" : "centroid";
}

const char* subthresholdModeName(SubthresholdMode mode) {
    switch (mode) {
        case SubthresholdMode::Mahal:
            return "mahal";
        case SubthresholdMode::Mahal0:
            return "mahal0";
        case SubthresholdMode::Euclid:
            return "euclid";
        case SubthresholdMode::EuclidMahal:
            return "euclid-mahal";
    }
    return "mahal";
}

}  // namespace clusterlens
