#include "mpi_ranks.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.hpp"

#ifdef CLUSTERLENS_HAVE_MPI
#include <mpi.h>
#endif

namespace clusterlens::cli {
namespace {

int launcherSize() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
        if (const char* value = std::getenv(name)) return std::atoi(value);
    return 1;
}

#ifdef CLUSTERLENS_HAVE_MPI

void check(int status, const char* call) {
    if (status == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(status, text, &length);
    throw std::runtime_error(std::string(call) + " failed: " + text);
}

/// MPI_COMM_WORLD as a ProcessGroup. The exchange moves bytes in rounds of at most INT_MAX / ranks
/// bytes per rank, so that MPI's int counts and displacements hold any size.
class MpiRanks final : public ProcessGroup {
public:
    MpiRanks() {
        int provided = 0;
        // The engine calls the group from the thread that runs the analysis, never from two at once.
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
        if (provided < MPI_THREAD_SERIALIZED)
            throw std::runtime_error("MPI does not allow calls from the analysis thread (MPI_THREAD_SERIALIZED)");
        check(MPI_Comm_rank(MPI_COMM_WORLD, &m_rank), "MPI_Comm_rank");
        check(MPI_Comm_size(MPI_COMM_WORLD, &m_size), "MPI_Comm_size");
        MPI_Comm host = MPI_COMM_NULL;
        check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &host),
              "MPI_Comm_split_type");
        check(MPI_Comm_rank(host, &m_hostRank), "MPI_Comm_rank");
        MPI_Comm_free(&host);
    }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    int hostRank() const { return m_hostRank; }

    std::vector<unsigned char> exchange(std::vector<unsigned char> bytes, bool toAll) override {
        const auto ranks = static_cast<std::size_t>(m_size);
        std::vector<unsigned long long> sizes(ranks);
        unsigned long long mine = bytes.size();
        check(MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, sizes.data(), 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD),
              "MPI_Allgather");
        std::vector<std::size_t> offsets(ranks + 1, 0);
        for (std::size_t r = 0; r < ranks; ++r) offsets[r + 1] = offsets[r] + sizes[r];
        const bool receives = toAll || m_rank == 0;
        std::vector<unsigned char> all(receives ? offsets[ranks] : 0);
        const unsigned long long piece = static_cast<unsigned long long>(INT_MAX) / ranks;
        const unsigned long long largest = *std::max_element(sizes.begin(), sizes.end());
        std::vector<int> counts(ranks), places(ranks);
        std::vector<unsigned char> round;
        for (unsigned long long start = 0; start < largest; start += piece) {
            int total = 0;
            for (std::size_t r = 0; r < ranks; ++r) {
                counts[r] = static_cast<int>(sizes[r] > start ? std::min(piece, sizes[r] - start) : 0);
                places[r] = total;
                total += counts[r];
            }
            round.resize(receives ? static_cast<std::size_t>(total) : 0);
            const auto me = static_cast<std::size_t>(m_rank);
            unsigned char* send = bytes.data() + std::min<unsigned long long>(start, mine);
            if (toAll)
                check(MPI_Allgatherv(send, counts[me], MPI_BYTE, round.data(), counts.data(), places.data(), MPI_BYTE,
                                     MPI_COMM_WORLD),
                      "MPI_Allgatherv");
            else
                check(MPI_Gatherv(send, counts[me], MPI_BYTE, round.data(), counts.data(), places.data(), MPI_BYTE, 0,
                                  MPI_COMM_WORLD),
                      "MPI_Gatherv");
            if (!receives) continue;
            for (std::size_t r = 0; r < ranks; ++r)
                if (counts[r] > 0)
                    std::memcpy(all.data() + offsets[r] + start, round.data() + places[r],
                                static_cast<std::size_t>(counts[r]));
        }
        return all;
    }

private:
    int m_rank = 0, m_size = 1, m_hostRank = 0;
};

std::unique_ptr<MpiRanks>& ranks() {
    static std::unique_ptr<MpiRanks> instance;
    return instance;
}

#endif

}  // namespace

bool launchedAsRanks() {
    return launcherSize() > 1;
}

ProcessGroup* launchedRanks() {
    if (!launchedAsRanks()) return nullptr;
#ifdef CLUSTERLENS_HAVE_MPI
    if (!ranks()) ranks() = std::make_unique<MpiRanks>();
    return ranks().get();
#else
    throw UsageError("mpirun started " + std::to_string(launcherSize()) +
                     " ranks, but this clusterlens-cli was built without MPI (install libopenmpi-dev and rebuild)");
#endif
}

int hostRank() {
#ifdef CLUSTERLENS_HAVE_MPI
    if (ranks()) return ranks()->hostRank();
#endif
    return 0;
}

void finishRanks() {
#ifdef CLUSTERLENS_HAVE_MPI
    if (ranks()) MPI_Finalize();
    ranks().reset();
#endif
}

int abortRanks(int code) {
#ifdef CLUSTERLENS_HAVE_MPI
    if (ranks()) MPI_Abort(MPI_COMM_WORLD, code);
#endif
    return code;
}

}  // namespace clusterlens::cli
