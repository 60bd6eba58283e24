#include "clusterlens/io/number_text.hpp"

#include <charconv>
#include <cmath>

namespace clusterlens {
namespace {

template <typename Real>
void appendReal(std::string& out, Real value) {
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    char buffer[32];  // the longest shortest double, "-2.2250738585072014e-308", has 24 characters
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, ec == std::errc() ? end : buffer);
}

}  // namespace

void appendShortest(std::string& out, double value) {
    appendReal(out, value);
}

void appendShortest(std::string& out, float value) {
    appendReal(out, value);
}

std::string shortestText(double value) {
    std::string out;
    appendShortest(out, value);
    return out;
}

}  // namespace clusterlens
