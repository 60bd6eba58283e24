// Label files (readLabels): one integer per line or the CLI's index,label CSV. The input's last byte is
// the expected count (0 = any).

#include <fuzzer/FuzzedDataProvider.h>

#include "clusterlens/io/labels.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    FuzzedDataProvider input(data, size);
    const auto expected = input.ConsumeIntegral<std::uint8_t>();
    const std::string path = fuzz::writeInput(input.ConsumeRemainingBytes<std::uint8_t>(), "labels.csv");
    fuzz::accepted([&] {
        if (expected != 0 && readLabels(path, expected).size() != expected) fuzz::finding("label count differs");
    });
    return 0;
}
