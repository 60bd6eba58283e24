#include "args.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

namespace clusterlens::cli {

const std::set<std::string> kCommonFlags = {"--json", "--compensate", "--allow-non-finite", "--quiet"};
const std::set<std::string> kCommonValued = {"--backend",   "--columns", "--transform",    "--dataset",
                                             "--subsample", "--seed",    "--label-column", "--embedding"};

std::set<std::string> with(std::set<std::string> base, const std::set<std::string>& more) {
    base.insert(more.begin(), more.end());
    return base;
}

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& flags,
           const std::set<std::string>& valued) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        const bool shortOption = arg.size() == 2 && arg[0] == '-' && std::isalpha(static_cast<unsigned char>(arg[1]));
        if (!shortOption && (arg.size() < 3 || arg.rfind("--", 0) != 0)) {
            m_positional.push_back(arg);
            continue;
        }
        std::string name = arg, value;
        const auto eq = arg.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
        }
        if (flags.count(name)) {
            if (inlineValue) throw UsageError(name + " takes no value");
            m_flags.insert(name);
        } else if (valued.count(name)) {
            if (!inlineValue) {
                if (i + 1 >= argv.size()) throw UsageError(name + " needs a value");
                value = argv[++i];
            }
            m_values[name] = value;
            m_repeated[name].push_back(value);
        } else {
            throw UsageError("unknown option " + name);
        }
    }
}

void Args::expectPositional(const std::vector<std::string>& names) const {
    if (m_positional.size() == names.size()) return;
    std::string expected;
    for (const std::string& n : names) expected += " " + n;
    throw UsageError("expected" + expected + " (got " + std::to_string(m_positional.size()) + " arguments)");
}

std::string Args::value(const std::string& name, const std::string& fallback) const {
    auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

std::vector<std::string> Args::values(const std::string& name) const {
    auto it = m_repeated.find(name);
    return it == m_repeated.end() ? std::vector<std::string>{} : it->second;
}

std::string Args::required(const std::string& name) const {
    auto it = m_values.find(name);
    if (it == m_values.end()) throw UsageError(name + " is required");
    return it->second;
}

double Args::number(const std::string& name, double fallback) const {
    if (!has(name)) return fallback;
    const std::string text = value(name);
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size())
        throw UsageError(name + ": '" + text + "' is not a number");
    return v;
}

std::uint64_t Args::count(const std::string& name, std::uint64_t fallback) const {
    if (!has(name)) return fallback;
    const std::string text = value(name);
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size())
        throw UsageError(name + ": '" + text + "' is not a non-negative integer");
    return v;
}

std::pair<double, double> Args::numberPair(const std::string& name, const std::string& expected) const {
    const std::vector<std::string> parts = list(name);
    double a = 0.0, b = 0.0;
    const auto parse = [](const std::string& text, double& v) {
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(v);
    };
    if (parts.size() != 2 || !parse(parts[0], a) || !parse(parts[1], b))
        throw UsageError(name + " takes " + expected + ", got '" + value(name) + "'");
    return {a, b};
}

std::pair<double, double> Args::clipPercentiles(std::pair<double, double> fallback) const {
    if (!has("--clip")) return fallback;
    const std::string expected = "two percentiles LOW,HIGH with 0 <= LOW < HIGH <= 100, e.g. 1,99";
    const auto [low, high] = numberPair("--clip", expected);
    if (!(low >= 0.0 && low < high && high <= 100.0))
        throw UsageError("--clip takes " + expected + ", got '" + value("--clip") + "'");
    return {low, high};
}

std::vector<std::string> Args::list(const std::string& name) const {
    std::vector<std::string> items;
    std::string text = value(name), item;
    for (char c : text) {
        if (c == ',') {
            if (!item.empty()) items.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    if (!item.empty()) items.push_back(item);
    return items;
}

std::string Args::choice(const std::string& name, const std::vector<std::string>& choices,
                         const std::string& fallback) const {
    const std::string v = value(name, fallback);
    for (const std::string& c : choices)
        if (c == v) return v;
    std::string allowed;
    for (const std::string& c : choices) allowed += (allowed.empty() ? "" : "|") + c;
    throw UsageError(name + ": '" + v + "' is not one of " + allowed);
}

}  // namespace clusterlens::cli
