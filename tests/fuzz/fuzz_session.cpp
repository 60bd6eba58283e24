// Session files (readSession), two ways chosen by the input's last byte. 0: the bytes of a file, which
// fuzzes the header and its checksum, the guard that refuses damaged files before HDF5 parses them.
// 1: a program of HDF5 objects (hdf5_program.hpp) written after a 512-byte user block and sealed with a
// matching header, which fuzzes what the reader makes of well-formed HDF5 with arbitrary content. A
// session that was accepted must save and read back.

#include <fuzzer/FuzzedDataProvider.h>

#include "clusterlens/session/session_file.hpp"
#include "fuzz_support.hpp"
#include "hdf5_program.hpp"
#include "session/session_header.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace clusterlens;
    FuzzedDataProvider input(data, size);
    const bool program = (input.ConsumeIntegral<std::uint8_t>() & 1) != 0;
    const std::vector<std::uint8_t> bytes = input.ConsumeRemainingBytes<std::uint8_t>();
    std::string path;
    if (program) {
        path = fuzz::scratchPath("input.clusterlens");
        if (!fuzz::writeHdf5Program(path, bytes.data(), bytes.size(), session_detail::kHeaderBytes))
            fuzz::finding("HDF5 could not write the file");
        session_detail::sealFile(path, path, "fuzz");
    } else {
        path = fuzz::writeInput(bytes, "input.clusterlens");
    }
    Session session;
    if (!fuzz::accepted([&] { session = readSession(path); })) return 0;
    const std::string copy = fuzz::scratchPath("copy.clusterlens");
    fuzz::mustHold("an accepted session could not be saved and read back", [&] {
        writeSession(copy, session);
        readSession(copy);
    });
    return 0;
}
