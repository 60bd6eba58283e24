#include "json.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "clusterlens/io/number_text.hpp"

namespace clusterlens::cli {
namespace {

void escapeTo(const std::string& text, std::string& out) {
    out += '"';
    for (unsigned char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    out += '"';
}

}  // namespace

Json& Json::set(const std::string& key, Json value) {
    auto* object = std::get_if<std::shared_ptr<Object>>(&m_value);
    if (!object) throw std::logic_error("Json::set on a non-object");
    for (auto& [k, v] : **object)
        if (k == key) {
            v = std::move(value);
            return *this;
        }
    (*object)->emplace_back(key, std::move(value));
    return *this;
}

Json& Json::push(Json value) {
    auto* array = std::get_if<std::shared_ptr<Array>>(&m_value);
    if (!array) throw std::logic_error("Json::push on a non-array");
    (*array)->push_back(std::move(value));
    return *this;
}

std::string Json::dump() const {
    std::string out;
    dumpTo(out);
    return out;
}

void Json::dumpTo(std::string& out) const {
    if (std::holds_alternative<std::nullptr_t>(m_value)) {
        out += "null";
    } else if (const bool* b = std::get_if<bool>(&m_value)) {
        out += *b ? "true" : "false";
    } else if (const double* d = std::get_if<double>(&m_value)) {
        if (!std::isfinite(*d)) {
            out += "null";
        } else if (*d == std::floor(*d) && std::fabs(*d) < 9.0e15) {
            out += std::to_string(static_cast<long long>(*d));
        } else {
            appendShortest(out, *d);  // 15.55, not 15.550000000000001
        }
    } else if (const std::string* s = std::get_if<std::string>(&m_value)) {
        escapeTo(*s, out);
    } else if (const auto* a = std::get_if<std::shared_ptr<Array>>(&m_value)) {
        out += '[';
        for (std::size_t i = 0; i < (*a)->size(); ++i) {
            if (i) out += ',';
            (**a)[i].dumpTo(out);
        }
        out += ']';
    } else if (const auto* o = std::get_if<std::shared_ptr<Object>>(&m_value)) {
        out += '{';
        bool first = true;
        for (const auto& [k, v] : **o) {
            if (!first) out += ',';
            first = false;
            escapeTo(k, out);
            out += ':';
            v.dumpTo(out);
        }
        out += '}';
    }
}

Json stringArray(const std::vector<std::string>& values) {
    Json::Array array;
    for (const std::string& v : values) array.emplace_back(v);
    return Json(std::move(array));
}

}  // namespace clusterlens::cli
