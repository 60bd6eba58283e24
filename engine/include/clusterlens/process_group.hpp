#pragma once
// An analysis spread over several processes (the ranks that mpirun starts, one GPU each): each
// process runs its share and meets the others through the group's exchange. The engine only calls
// exchange; the front end that started the processes implements it (clusterlens-cli with MPI).

#include <vector>

namespace clusterlens {

class ProcessGroup {
public:
    virtual ~ProcessGroup() = default;
    /// This process's place in the group, 0 .. size() - 1; rank 0 ends with the whole result.
    virtual int rank() const = 0;
    virtual int size() const = 0;
    /// Every process's `bytes`, concatenated in rank order, to every process (toAll) or to rank 0
    /// only (the others get an empty vector). Every process calls it in the same sequence. Throws
    /// std::runtime_error when the exchange fails.
    virtual std::vector<unsigned char> exchange(std::vector<unsigned char> bytes, bool toAll) = 0;
};

}  // namespace clusterlens
