#pragma once
// The benchmark program's case registry. A source file in bench/engine/ adds its cases with a
// static Registrar; main.cpp selects, times and reports them:
//
//   namespace { const clusterlens::bench::Registrar registrar([](clusterlens::bench::Registry& r) {
//       r.add({.workload = "my workload 44Kx14", .backend = "cuda", .n = ..., .d = ..., .run = [] { ... }});
//   }); }

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"

namespace clusterlens::bench {

/// One benchmark case. `run` does the timed work once and must block until it is finished (the
/// engine's GPU functions return host results, so they do). Timing: `warmUp` untimed runs, then the
/// requested number of timed runs (at most `maxRepeat` when that is > 0); the median is reported.
struct BenchCase {
    std::string workload;           ///< e.g. "ward 44Kx14"; --filter matches "workload backend"
    std::string backend;            ///< "cpu" or "cuda"; cuda cases are skipped without a device
    std::size_t n = 0;              ///< points
    std::size_t d = 0;              ///< features
    std::function<void()> run;      ///< the timed work
    std::function<void()> prepare;  ///< optional untimed setup before the first run (data generation)
    int warmUp = 1;                 ///< untimed runs first (module loading, allocator warm-up)
    int maxRepeat = 0;              ///< cap on timed runs for expensive cases; 0 = no cap
    int gpus = 1;                   ///< cuda: the devices it spreads over; skipped, by name, on fewer
};

class Registry {
public:
    static Registry& instance();
    void add(BenchCase benchCase) { m_cases.push_back(std::move(benchCase)); }
    const std::vector<BenchCase>& cases() const { return m_cases; }
    /// --profile: the cases report what their runs did on stderr (MHCA's probe, the VAT engine's
    /// passes); profiled MHCA runs synchronise between their stages, so their times are longer.
    bool profile() const { return m_profile; }
    void setProfile(bool on) { m_profile = on; }

private:
    std::vector<BenchCase> m_cases;
    bool m_profile = false;
};

/// Registers cases at static-initialisation time.
struct Registrar {
    explicit Registrar(const std::function<void(Registry&)>& addCases) { addCases(Registry::instance()); }
};

/// Cytometry-like data (makeCytometryLike: 12 anisotropic Gaussian populations + 3 % noise, seed 1)
/// of n points x d features, generated on first use and cached for all cases.
const Dataset& cytometryData(std::size_t n, std::size_t d);

/// "44K", "200K", "1M": n for workload names.
std::string shortCount(std::size_t n);

}  // namespace clusterlens::bench
