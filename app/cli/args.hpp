#pragma once
// Command-line parsing for clusterlens-cli: positional arguments plus --options, each option
// declared by the command that uses it (unknown options are errors, exit code 2).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace clusterlens::cli {

/// Bad arguments: exit code 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Args {
public:
    /// `flags` take no value; `valued` take one value (--opt V or --opt=V).
    Args(const std::vector<std::string>& argv, const std::set<std::string>& flags, const std::set<std::string>& valued);

    const std::vector<std::string>& positional() const { return m_positional; }
    /// Exactly `count` positional arguments named by `names` (for the message), else UsageError.
    void expectPositional(const std::vector<std::string>& names) const;
    bool flag(const std::string& name) const { return m_flags.count(name) != 0; }
    bool has(const std::string& name) const { return m_values.count(name) != 0; }
    std::string value(const std::string& name, const std::string& fallback = "") const;
    std::string required(const std::string& name) const;
    double number(const std::string& name, double fallback) const;
    std::uint64_t count(const std::string& name, std::uint64_t fallback) const;
    std::vector<std::string> list(const std::string& name) const;  ///< comma-separated
    /// Two finite numbers "A,B", else UsageError naming the option with `expected` and the text.
    std::pair<double, double> numberPair(const std::string& name, const std::string& expected) const;
    /// --clip LOW,HIGH of `vat` and `plot vat`: contrast percentiles with 0 <= LOW < HIGH <= 100, else
    /// UsageError; `fallback` without the option.
    std::pair<double, double> clipPercentiles(std::pair<double, double> fallback) const;
    /// Every value of an option given more than once, in command-line order (value() is the last).
    std::vector<std::string> values(const std::string& name) const;
    /// One of `choices`, else UsageError naming the option.
    std::string choice(const std::string& name, const std::vector<std::string>& choices,
                       const std::string& fallback) const;

private:
    std::vector<std::string> m_positional;
    std::set<std::string> m_flags;
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::vector<std::string>> m_repeated;
};

/// Options every data-reading command accepts (DESIGN.md "common").
extern const std::set<std::string> kCommonFlags;
extern const std::set<std::string> kCommonValued;

/// Union helper for option sets.
std::set<std::string> with(std::set<std::string> base, const std::set<std::string>& more);

}  // namespace clusterlens::cli
