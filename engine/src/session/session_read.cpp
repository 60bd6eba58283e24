// Reading the session file (session_file.hpp; layout in docs/session-format.md). The header is checked
// first (session_header.hpp); HDF5 then parses exactly the checked bytes, from memory.

#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/session/session_file.hpp"
#include "session/session_header.hpp"

#ifdef CLUSTERLENS_HAVE_HDF5

#include <tuple>

#include "io/hdf5_handles.hpp"
#include "session/session_fields.hpp"

namespace clusterlens {
namespace {

using h5::Handle;

/// Typed, shape-checked access to the objects of a session file; every problem is "damaged".
class Reader {
public:
    Reader(const h5::File& file, const JobControl* control) : m_file(file), m_control(control) {}

    [[noreturn]] void fail(const std::string& object, const std::string& reason) const {
        m_file.fail(object, "the session is damaged: " + reason);
    }

    void require(const std::string& object) const {
        if (!m_file.exists(object)) fail(object, "it is missing");
    }

    std::string text(const std::string& object, const char* name) const {
        auto value = m_file.stringAttribute(object, name);
        if (!value) fail(object, std::string("text attribute '") + name + "' is missing");
        return *value;
    }

    std::int64_t integer(const std::string& object, const char* name) const {
        auto values = m_file.integersAttribute(object, name);
        if (!values || values->size() != 1) fail(object, std::string("integer attribute '") + name + "' is missing");
        return values->front();
    }

    std::uint64_t count(const std::string& object, const char* name) const {
        const std::int64_t value = integer(object, name);
        if (value < 0) fail(object, std::string("attribute '") + name + "' is negative");
        return static_cast<std::uint64_t>(value);
    }

    double real(const std::string& object, const char* name) const {
        Handle owner = m_file.openObject(object);
        if (H5Aexists(owner.get(), name) <= 0) fail(object, std::string("number attribute '") + name + "' is missing");
        Handle attribute(H5Aopen(owner.get(), name, H5P_DEFAULT), H5Aclose);
        Handle type(H5Aget_type(attribute.get()), H5Tclose);
        Handle space(H5Aget_space(attribute.get()), H5Sclose);
        double value = 0.0;
        if (H5Tget_class(type.get()) != H5T_FLOAT || H5Sget_simple_extent_npoints(space.get()) != 1 ||
            H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value) < 0)
            fail(object, std::string("number attribute '") + name + "' is not one floating-point number");
        return value;
    }

    std::vector<std::string> strings(const std::string& object) const {
        require(object);
        return m_file.readStrings(object);
    }

    /// A whole 1-D dataset of the given class, converted to `memoryType` (exact for the types written).
    template <typename T>
    std::vector<T> numbers(const std::string& object, H5T_class_t typeClass, hid_t memoryType) const {
        require(object);
        Handle dataset = m_file.openDataset(object);
        Handle type(H5Dget_type(dataset.get()), H5Tclose);
        if (H5Tget_class(type.get()) != typeClass)
            fail(object, typeClass == H5T_FLOAT ? "expected floating-point numbers" : "expected integers");
        const std::vector<std::uint64_t> shape = m_file.shape(object);
        if (shape.size() != 1) fail(object, "expected a 1-D array");
        std::vector<T> values(shape[0]);
        m_file.readBlock(object, dataset.get(), memoryType, 0, shape[0], values.data());
        return values;
    }
    std::vector<std::int64_t> int64s(const std::string& o) const {
        return numbers<std::int64_t>(o, H5T_INTEGER, H5T_NATIVE_INT64);
    }
    std::vector<std::int32_t> int32s(const std::string& o) const {
        return numbers<std::int32_t>(o, H5T_INTEGER, H5T_NATIVE_INT32);
    }
    std::vector<double> doubles(const std::string& o) const { return numbers<double>(o, H5T_FLOAT, H5T_NATIVE_DOUBLE); }
    std::vector<std::uint8_t> bytes(const std::string& o) const {
        return numbers<std::uint8_t>(o, H5T_INTEGER, H5T_NATIVE_UINT8);
    }

    std::vector<float> matrix(const std::string& object, std::uint64_t rows, std::uint64_t cols) const {
        require(object);
        if (m_file.shape(object) != std::vector<std::uint64_t>{rows, cols})
            fail(object, "expected a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
        return m_file.readFloats(object, m_control);
    }

    /// Paths of the numbered groups of a collection.
    std::vector<std::string> entries(const std::string& collection) const {
        require(collection);
        const std::uint64_t n = count(collection, "count");
        if (m_file.children(collection).size() != n) fail(collection, "its count differs from the entries it holds");
        std::vector<std::string> paths;
        for (std::uint64_t i = 0; i < n; ++i) {
            paths.push_back(collection + "/" + std::to_string(i));
            require(paths.back());
        }
        return paths;
    }

private:
    const h5::File& m_file;
    const JobControl* m_control;
};

/// The reading side of session_fields.hpp: every field of one group `object`.
class FieldReader {
public:
    FieldReader(const Reader& r, std::string object) : m_r(r), m_object(std::move(object)) {}

    void attribute(const char* name, std::string& value) const { value = m_r.text(m_object, name); }
    void attribute(const char* name, double& value) const { value = m_r.real(m_object, name); }
    void attribute(const char* name, std::uint64_t& value) const { value = m_r.count(m_object, name); }
    void attribute(const char* name, bool& value) const { value = m_r.integer(m_object, name) != 0; }
    void array(const char* name, std::vector<std::string>& values) const { values = m_r.strings(path(name)); }
    void array(const char* name, std::vector<std::int64_t>& values) const { values = m_r.int64s(path(name)); }
    void array(const char* name, std::vector<std::int32_t>& values) const { values = m_r.int32s(path(name)); }
    void array(const char* name, std::vector<double>& values) const { values = m_r.doubles(path(name)); }
    void array(const char* name, std::vector<std::uint8_t>& values) const { values = m_r.bytes(path(name)); }

    template <typename Row, typename... Members>
    void columns(std::vector<Row>& rows, const char* what, session_detail::Column<Row, Members>... columns) const {
        std::tuple<std::vector<Members>...> values;
        std::apply([&](auto&... v) { (array(columns.name, v), ...); }, values);
        const std::size_t size = std::get<0>(values).size();
        std::apply(
            [&](const auto&... v) {
                if (((v.size() != size) || ...)) m_r.fail(m_object, std::string(what) + " differ in length");
            },
            values);
        rows.assign(size, Row{});
        for (std::size_t i = 0; i < size; ++i)
            std::apply([&](const auto&... v) { ((rows[i].*columns.member = v[i]), ...); }, values);
    }

    FieldReader child(const std::string& name) const { return FieldReader(m_r, path(name)); }

    template <typename T>
    void collection(const std::string& name, std::vector<T>& entries) const {
        for (const std::string& o : m_r.entries(path(name))) {
            FieldReader entry(m_r, o);
            session_detail::visitFields(entry, entries.emplace_back());
        }
    }

private:
    std::string path(const std::string& name) const { return (m_object == "/" ? "" : m_object) + "/" + name; }

    const Reader& m_r;
    std::string m_object;
};

DatasetReference readData(const Reader& r, const h5::File& file) {
    DatasetReference data;
    FieldReader fields(r, "/data");
    session_detail::visitFields(fields, data);
    if (data.n != 0 && data.d > (std::uint64_t{1} << 40) / data.n) r.fail("/data", "n x d is implausibly large");
    if (!file.exists("/data/embedded")) return data;
    EmbeddedData embedded;
    embedded.values = r.matrix("/data/embedded/values", data.n, data.d);
    embedded.features = r.strings("/data/embedded/features");
    data.embedded = std::move(embedded);
    return data;
}

Session readContent(const h5::File& file, const JobControl* control) {
    const Reader r(file, control);
    if (r.text("/", "format") != kSessionFormatId)
        r.fail("/", "the format attribute is not " + std::string(kSessionFormatId));
    if (r.integer("/", "schema_version") != kSessionSchemaVersion)
        r.fail("/", "the schema_version attribute differs from the header's");
    Session s;
    s.appVersion = r.text("/", "app_version");
    s.data = readData(r, file);
    const FieldReader root(r, "/");
    session_detail::visitCollections(root, s);
    const std::vector<std::uint8_t> view = r.bytes("/view_state");
    s.viewState.assign(view.begin(), view.end());
    return s;
}

}  // namespace

Session readSession(const std::string& path, const JobControl* control) {
    std::string appVersion;
    std::string bytes = session_detail::readVerifiedFile(path, appVersion, control);
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    // The checked bytes themselves, from memory: nothing on disk is read again (or written).
    if (H5Pset_fapl_core(access.get(), 1 << 20, false) < 0 ||
        H5Pset_file_image(access.get(), bytes.data(), bytes.size()) < 0)
        throwFileError(path, "", "the session could not be prepared for reading (HDF5: " + h5::innermostError() + ")");
    bytes = std::string();
    // With an image, the core driver refuses a name that exists on disk: a child of the file cannot.
    const std::string imageName = path + "/session-image";
    Handle handle(H5Fopen(imageName.c_str(), H5F_ACC_RDONLY, access.get()), H5Fclose);
    if (!handle.valid())
        throwFileError(path, "", "the session is damaged: HDF5 cannot open it (" + h5::innermostError() + ")");
    const h5::File file(path, std::move(handle));
    Session session = readContent(file, control);
    if (control != nullptr) control->checkCancelled();
    validateSession(session, path + ": the session is damaged");
    return session;
}

bool looksLikeSession(const std::string& path) {
    return session_detail::hasSessionMagic(path);
}

}  // namespace clusterlens

#else  // CLUSTERLENS_HAVE_HDF5

namespace clusterlens {

Session readSession(const std::string& path, const JobControl*) {
    throw InvalidInput(path + ": this build has no HDF5 support, so sessions cannot be opened");
}

bool looksLikeSession(const std::string& path) {
    return session_detail::hasSessionMagic(path);
}

}  // namespace clusterlens

#endif  // CLUSTERLENS_HAVE_HDF5
