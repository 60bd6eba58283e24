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

/// The problem does not fit into the device's memory.
class OutOfDeviceMemory : public Error {
public:
    using Error::Error;
};

/// A CUDA runtime/library call failed (message carries call text, file and line).
class CudaError : public Error {
public:
    using Error::Error;
};

/// The user cancelled the job. A normal outcome, not a failure.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

/// Throws InvalidInput "FILE: POSITION: REASON" (position may be empty).
[[noreturn]] void throwFileError(const std::string& file, const std::string& position,
                                 const std::string& reason);

} // namespace clusterlens
