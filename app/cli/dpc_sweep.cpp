#include "dpc_sweep.hpp"

#include <charconv>
#include <cstdio>
#include <string>

#include "clusterlens/cluster/dc_sweep.hpp"
#include "input.hpp"
#include "progress.hpp"
#include "stopwatch.hpp"

namespace clusterlens::cli {

namespace {

template <class Number>
bool parseWhole(const std::string& text, Number& value) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::optional<DcSweepRequest> dcSweepRequest(const Args& args) {
    if (!args.has("--dc-sweep")) return std::nullopt;
    const std::string text = args.value("--dc-sweep");
    const std::size_t first = text.find(':'), second = first == std::string::npos ? first : text.find(':', first + 1);
    DcSweepRequest request;
    if (second == std::string::npos || !parseWhole(text.substr(0, first), request.lo) ||
        !parseWhole(text.substr(first + 1, second - first - 1), request.hi) ||
        !parseWhole(text.substr(second + 1), request.steps))
        throw UsageError("--dc-sweep: '" + text + "' is not LO:HI:STEPS (percentiles and a step count, e.g. 0.5:4:8)");
    try {
        sweepPercents(request.lo, request.hi, request.steps);
    } catch (const InvalidInput& error) {
        throw UsageError(error.what());
    }
    return request;
}

DcSweepJson runDcSweep(const Args& args, const Dataset& data, const DensityPeaksOptions& options,
                       const DcSweepRequest& request, const DensityPeaksResult& result,
                       const std::vector<std::int64_t>& peaks, const SessionRun& run, Backend backend, Json& seconds) {
    Stopwatch clock;
    const Computed<DcSweep> computed = [&] {
        ProgressLine progress(args, "dc sweep");
        return sweepDc(data.values.data(), data.n, data.d, options,
                       sweepPercents(request.lo, request.hi, request.steps), peaks.size(), peaks,
                       assignFromPeaks(result, peaks), backend, progress.control());
    }();
    seconds.set("sweep", clock.seconds());
    printWarnings(computed.warnings);
    const DcSweep& sweep = computed.result;
    DcSweepJson out;
    for (const DcSweepStep& step : sweep.steps) {
        Json stepPeaks = Json::array();
        for (const std::int64_t p : step.peaks) stepPeaks.push(run.indexOf(p));
        out.sweep.push(Json::object().set("percent", step.percent).set("dc", step.dc).set("peaks", stepPeaks));
    }
    for (const double p : sweep.persistence) out.persistence.push(p);
    if (!args.flag("--json")) {
        std::printf("dc sweep: %g%% to %g%% of the pairwise distances in %d steps, top %zu by gamma\n", request.lo,
                    request.hi, request.steps, peaks.size());
        for (std::size_t c = 0; c < peaks.size(); ++c)
            std::printf("peak %lld: persistence %.3f\n", static_cast<long long>(run.indexOf(peaks[c])),
                        sweep.persistence[c]);
    }
    return out;
}

}  // namespace clusterlens::cli
