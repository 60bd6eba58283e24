#pragma once
// A small ordered JSON value for the CLI's --json output (one object on stdout).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace clusterlens::cli {

class Json {
public:
    using Array = std::vector<Json>;
    using Object = std::vector<std::pair<std::string, Json>>;  // keeps insertion order

    Json() : m_value(nullptr) {}
    Json(std::nullptr_t) : m_value(nullptr) {}
    Json(bool v) : m_value(v) {}
    Json(int v) : m_value(static_cast<double>(v)) {}
    Json(long v) : m_value(static_cast<double>(v)) {}
    Json(long long v) : m_value(static_cast<double>(v)) {}
    Json(unsigned v) : m_value(static_cast<double>(v)) {}
    Json(unsigned long v) : m_value(static_cast<double>(v)) {}
    Json(unsigned long long v) : m_value(static_cast<double>(v)) {}
    Json(double v) : m_value(v) {}
    Json(const char* v) : m_value(std::string(v)) {}
    Json(std::string v) : m_value(std::move(v)) {}
    Json(Array v) : m_value(std::make_shared<Array>(std::move(v))) {}
    Json(Object v) : m_value(std::make_shared<Object>(std::move(v))) {}

    static Json object() { return Json(Object{}); }
    static Json array() { return Json(Array{}); }

    /// Adds or replaces a key of an object.
    Json& set(const std::string& key, Json value);
    /// Appends to an array.
    Json& push(Json value);
    /// Compact serialisation; non-finite numbers become null.
    std::string dump() const;

private:
    void dumpTo(std::string& out) const;
    std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<Array>, std::shared_ptr<Object>> m_value;
};

Json stringArray(const std::vector<std::string>& values);

}  // namespace clusterlens::cli
