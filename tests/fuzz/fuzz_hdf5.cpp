// HDF5 inputs (readHdf5): named 2-D datasets, 10x matrices, AnnData .h5ad with dense, CSR and CSC X and
// obsm embeddings. The input is a program of HDF5 objects (hdf5_program.hpp) that HDF5 writes into a
// well-formed file; its last byte chooses the file's extension and the --dataset / --embedding options.

#include <fuzzer/FuzzedDataProvider.h>

#include "clusterlens/io/read_dataset.hpp"
#include "fuzz_support.hpp"
#include "hdf5_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    static const char* const kDatasets[] = {"", "/matrix", "/X", "/data"};
    static const char* const kEmbeddings[] = {"", "X_umap"};
    FuzzedDataProvider input(data, size);
    const auto flags = input.ConsumeIntegral<std::uint8_t>();
    ReadOptions options;
    options.maxDenseValues = std::uint64_t{1} << 22;  // a shape may promise more than the fuzzer's 2 GiB of memory
    options.h5Dataset = kDatasets[(flags >> 1) & 3];
    options.embedding = kEmbeddings[(flags >> 3) & 1];
    const std::string path = fuzz::scratchPath((flags & 1) != 0 ? "input.h5ad" : "input.h5");
    const std::vector<std::uint8_t> program = input.ConsumeRemainingBytes<std::uint8_t>();
    if (!fuzz::writeHdf5Program(path, program.data(), program.size(), 0))
        fuzz::finding("HDF5 could not write the file");
    fuzz::accepted([&] { fuzz::requireConsistent(readHdf5(path, options)); });
    return 0;
}
