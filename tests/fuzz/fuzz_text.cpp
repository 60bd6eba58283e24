// Text tables (readText): CSV, TSV, whitespace, gzip by magic bytes. The input's last byte chooses the
// file name's extension (which picks TSV) and the label column option; the rest is the file.

#include <fuzzer/FuzzedDataProvider.h>

#include "clusterlens/io/read_dataset.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    static const char* const kNames[] = {"input.csv", "input.tsv", "input.txt", "input.csv.gz"};
    static const char* const kLabelColumns[] = {"", "last", "1", "class"};
    FuzzedDataProvider input(data, size);
    const auto flags = input.ConsumeIntegral<std::uint8_t>();
    ReadOptions options;
    options.labelColumn = kLabelColumns[(flags >> 2) & 3];
    options.allowNonFinite = (flags & 16) != 0;
    const std::string path = fuzz::writeInput(input.ConsumeRemainingBytes<std::uint8_t>(), kNames[flags & 3]);
    fuzz::accepted([&] { fuzz::requireConsistent(readText(path, options)); });
    return 0;
}
