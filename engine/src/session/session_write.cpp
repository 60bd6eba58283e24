// Writing the session file (session_file.hpp; layout in docs/session-format.md).

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"
#include "clusterlens/session/session_file.hpp"
#include "session/session_header.hpp"

#ifdef CLUSTERLENS_HAVE_HDF5

#include <type_traits>

#include "session/h5_writer.hpp"
#include "session/session_fields.hpp"

namespace clusterlens {
namespace {

using h5::Handle;
using h5::Writer;

/// The writing side of session_fields.hpp: every field of one group `object`.
class FieldWriter {
public:
    /// The fields of `group`, which the caller keeps open.
    FieldWriter(const Writer& w, hid_t group, std::string object)
        : m_w(w), m_group(group), m_object(std::move(object)) {}
    /// The fields of a group this writer closes.
    FieldWriter(const Writer& w, Handle group, std::string object)
        : m_w(w), m_owned(std::move(group)), m_group(m_owned.get()), m_object(std::move(object)) {}

    hid_t group() const { return m_group; }

    void attribute(const char* name, const std::string& value) const { m_w.attribute(m_group, m_object, name, value); }
    void attribute(const char* name, double value) const { m_w.attribute(m_group, m_object, name, value); }
    /// Counts and flags are stored as 64-bit integers (a flag as 0 or 1).
    template <typename T>
    requires std::is_integral_v<T>
    void attribute(const char* name, T value) const {
        m_w.attribute(m_group, m_object, name, static_cast<std::int64_t>(value));
    }
    void array(const char* name, const std::vector<std::string>& values) const {
        m_w.strings(m_group, m_object, name, values);
    }
    template <typename T>
    void array(const char* name, const std::vector<T>& values) const {
        m_w.array(m_group, m_object, name, values);
    }
    template <typename Row, typename... Members>
    void columns(const std::vector<Row>& rows, const char* /*what*/,
                 session_detail::Column<Row, Members>... columns) const {
        (writeColumn(rows, columns), ...);
    }

    /// A child group, created now and closed with the returned writer.
    FieldWriter child(const std::string& name) const {
        std::string object = (m_object == "/" ? "" : m_object) + "/" + name;
        Handle group = m_w.group(m_group, name, object);
        return FieldWriter(m_w, std::move(group), std::move(object));
    }

    /// Numbered groups 0..count-1 of a group `name` with a `count` attribute: user names never become HDF5
    /// link names.
    template <typename T>
    void collection(const std::string& name, const std::vector<T>& entries) const {
        const FieldWriter group = child(name);
        group.attribute("count", entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const FieldWriter entry = group.child(std::to_string(i));
            session_detail::visitFields(entry, entries[i]);
        }
    }

private:
    template <typename Row, typename Member>
    void writeColumn(const std::vector<Row>& rows, session_detail::Column<Row, Member> column) const {
        std::vector<Member> values;
        values.reserve(rows.size());
        for (const Row& row : rows) values.push_back(row.*column.member);
        array(column.name, values);
    }

    const Writer& m_w;
    Handle m_owned;
    hid_t m_group;
    std::string m_object;
};

void writeHdf5(const std::string& tempPath, const std::string& path, const Session& session) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Writer w(tempPath, path, session_detail::kHeaderBytes);
    const FieldWriter root(w, w.root(), "/");
    root.attribute("format", std::string(kSessionFormatId));
    root.attribute("schema_version", kSessionSchemaVersion);
    root.attribute("app_version", std::string(CLUSTERLENS_VERSION));
    {
        const FieldWriter data = root.child("data");
        session_detail::visitFields(data, session.data);
        if (session.data.embedded) {
            const EmbeddedData& embedded = *session.data.embedded;
            const FieldWriter group = data.child("embedded");
            w.matrix(group.group(), "/data/embedded", "values", embedded.values.data(), session.data.n, session.data.d);
            group.array("features", embedded.features);
        }
    }
    session_detail::visitCollections(root, session);
    w.array(w.root(), "", "view_state", std::vector<std::uint8_t>(session.viewState.begin(), session.viewState.end()));
    w.close();
}

}  // namespace

void writeSession(const std::string& path, const Session& session) {
    validateSession(session, path);
    writeFileAtomically(path, [&](const std::string& tempPath) {
        writeHdf5(tempPath, path, session);
        session_detail::sealFile(tempPath, path, CLUSTERLENS_VERSION);
    });
}

}  // namespace clusterlens

#else  // CLUSTERLENS_HAVE_HDF5

namespace clusterlens {

void writeSession(const std::string& path, const Session& /*session*/) {
    throw InvalidInput(path + ": this build has no HDF5 support, so sessions cannot be saved");
}

}  // namespace clusterlens

#endif  // CLUSTERLENS_HAVE_HDF5
