#pragma once
// Shared by the libFuzzer targets of this folder (docs/reliability.md). A target hands the input to one
// reader; a refusal (InvalidInput) is the expected answer to damaged input, and anything else — a crash,
// a sanitizer report, another exception escaping, an inconsistent result — is a finding.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "clusterlens/errors.hpp"

namespace clusterlens::fuzz {

/// The path of the file NAME in this process's scratch folder (see writeInput).
std::string scratchPath(const std::string& name);

/// Writes `bytes` to the file NAME in this process's scratch folder (made on first use in /dev/shm,
/// else $TMPDIR or /tmp; removed at exit) and returns its path. The readers that only take paths read it there.
std::string writeInput(const std::vector<std::uint8_t>& bytes, const std::string& name);

/// With CLUSTERLENS_FUZZ_VERBOSE set, prints the refusal's message (to check what seeds reach).
void noteRefusal(const InvalidInput& error);

/// Runs `read`; false when it refused the input with InvalidInput, the expected answer to malformed
/// input. Any other exception escapes to libFuzzer, which reports it as a crash.
template <typename Read>
bool accepted(Read&& read) {
    try {
        read();
        return true;
    } catch (const InvalidInput& error) {
        noteRefusal(error);
        return false;
    }
}

/// Runs `check`, which must not throw InvalidInput: used for what the engine promises about input it
/// accepted (a consistent dataset, a writable session). A refusal there aborts as a finding naming `what`.
template <typename Check>
void mustHold(const char* what, Check&& check);

/// Aborts (a finding) unless a dataset a reader accepted is consistent: validateShape, and `exact`
/// empty or n*d.
void requireConsistent(const Dataset& data);

/// Aborts with `what` on stderr (a finding that is not a crash by itself).
[[noreturn]] void finding(const std::string& what);

template <typename Check>
void mustHold(const char* what, Check&& check) {
    try {
        check();
    } catch (const InvalidInput& error) {
        finding(std::string(what) + ": " + error.what());
    }
}

}  // namespace clusterlens::fuzz
