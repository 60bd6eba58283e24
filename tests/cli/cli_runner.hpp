#pragma once
// Runs clusterlens-cli as a child process and captures exit code, stdout and stderr.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace clusterlens::test {

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

inline std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

/// `launcher`: words the shell puts before the program (an environment assignment, mpirun -np 3).
inline CliResult runCli(const std::vector<std::string>& args, const std::string& launcher = "") {
    TempDir dir;
    std::string command = (launcher.empty() ? "" : launcher + " ") + shellQuote(CLUSTERLENS_CLI);
    for (const std::string& a : args) command += " " + shellQuote(a);
    command += " >" + shellQuote(dir.file("out")) + " 2>" + shellQuote(dir.file("err"));
    const int status = std::system(command.c_str());
    CliResult result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = readFile(dir.file("out"));
    result.err = readFile(dir.file("err"));
    return result;
}

/// `clusterlens-cli WORDS...` exits 2 (a usage error) with a message that holds `option` and `reason`.
inline void expectUsageError(const std::vector<std::string>& words, const std::string& option,
                             const std::string& reason) {
    const CliResult result = runCli(words);
    EXPECT_EQ(result.exitCode, 2) << reason;
    EXPECT_NE(result.err.find(option), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(reason), std::string::npos) << result.err;
}

}  // namespace clusterlens::test
