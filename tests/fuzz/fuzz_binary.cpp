// The thesis' binary format (readThesisBinary): uint64 D, uint64 N, N*D float64.

#include "clusterlens/io/read_dataset.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    const std::string path = fuzz::writeInput(std::vector<std::uint8_t>(data, data + size), "input.bin");
    fuzz::accepted([&] { fuzz::requireConsistent(readThesisBinary(path)); });
    return 0;
}
