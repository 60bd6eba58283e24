// A-priori group files of MHCA (--apriori): readLabels with the expected count, then MHCA on that many
// fixed points with the groups, as the CLI runs it. The input's last byte sets the point count (2..33).

#include <fuzzer/FuzzedDataProvider.h>

#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/io/labels.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    FuzzedDataProvider input(data, size);
    const std::size_t n = 2 + input.ConsumeIntegral<std::uint8_t>() % 32;
    const std::string path = fuzz::writeInput(input.ConsumeRemainingBytes<std::uint8_t>(), "apriori.txt");
    std::vector<double> points(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
        points[2 * i] = static_cast<double>(i % 7) + 0.1 * static_cast<double>(i);
        points[2 * i + 1] = static_cast<double>((i * i) % 11);
    }
    MhcaOptions options;
    Linkage linkage;
    if (!fuzz::accepted([&] {
            options.apriori = readLabels(path, n);
            linkage = mhcaCpu(points.data(), n, 2, options);  // refuses negative group ids
        }))
        return 0;
    fuzz::mustHold("MHCA with a-priori groups gave an invalid linkage", [&] { linkage.validate(path); });
    return 0;
}
