// FCS 2.0 / 3.0 / 3.1 (readFcs). The input's last byte chooses the read options, the rest is the file.

#include <fuzzer/FuzzedDataProvider.h>

#include "clusterlens/io/read_dataset.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    FuzzedDataProvider input(data, size);
    const auto flags = input.ConsumeIntegral<std::uint8_t>();
    ReadOptions options;
    options.compensate = (flags & 1) != 0;
    options.allowTruncated = (flags & 2) != 0;
    options.allowNonFinite = (flags & 4) != 0;
    const std::string path = fuzz::writeInput(input.ConsumeRemainingBytes<std::uint8_t>(), "input.fcs");
    fuzz::accepted([&] { fuzz::requireConsistent(readFcs(path, options)); });
    return 0;
}
