#pragma once
// The engine's one error hierarchy. Every message is written for the user
// (a biologist): it names the file or option, the position and the reason.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace clusterlens {

/// Base of every error the engine throws on purpose.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Malformed file, wrong option value, data that violates a precondition (N < 2, D = 0, ...).
class InvalidInput : public Error {
public:
    using Error::Error;
};

/// NaN or infinite values where the algorithm needs finite numbers.
class NonFiniteInput : public InvalidInput {
public:
    using InvalidInput::InvalidInput;
};

/// The problem does not fit into the device's memory. neededBytes() is what the run asked the device
/// for when it failed (0 when unknown), freeBytes() what the device had free then.
class OutOfDeviceMemory : public Error {
public:
    explicit OutOfDeviceMemory(const std::string& message, std::size_t neededBytes = 0, std::size_t freeBytes = 0)
        : Error(message), m_neededBytes(neededBytes), m_freeBytes(freeBytes) {}
    std::size_t neededBytes() const noexcept { return m_neededBytes; }
    std::size_t freeBytes() const noexcept { return m_freeBytes; }

private:
    std::size_t m_neededBytes;
    std::size_t m_freeBytes;
};

/// A CUDA runtime/library call failed (message carries call text, file and line). contextLost() is
/// true for the sticky errors (an illegal address, a failed launch, ...) after which every CUDA call of
/// the process fails: the engine then stops using CUDA for the rest of the process.
class CudaError : public Error {
public:
    explicit CudaError(const std::string& message, bool contextLost = false)
        : Error(message), m_contextLost(contextLost) {}
    bool contextLost() const noexcept { return m_contextLost; }

private:
    bool m_contextLost;
};

/// The user cancelled the job. A normal outcome, not a failure.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

/// Throws InvalidInput "FILE: POSITION: REASON" (position may be empty).
[[noreturn]] void throwFileError(const std::string& file, const std::string& position, const std::string& reason);

}  // namespace clusterlens
