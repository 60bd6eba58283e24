#include "clusterlens/io/h5ad_annotate.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"
#include "clusterlens/job_control.hpp"

#ifdef CLUSTERLENS_HAVE_HDF5
#include "io/hdf5_handles.hpp"
#include "session/h5_writer.hpp"
#endif

namespace clusterlens {
namespace {

namespace fs = std::filesystem;

/// Every precondition of one column that does not need the file (writeH5adWithObsColumns).
void validateColumn(const std::string& out, const ObsCategorical& column, std::size_t n) {
    const std::string object = "obs column '" + column.name + "'";
    if (column.name.empty()) throwFileError(out, "", "an obs column needs a name");
    if (column.name.find('/') != std::string::npos || column.name == "." || column.name == "..")
        throwFileError(out, object, "AnnData column names cannot contain '/' or be '.' or '..'; choose another name");
    if (column.codes.size() != n)
        throwFileError(
            out, object,
            "has " + std::to_string(column.codes.size()) + " values, the file " + std::to_string(n) + " observations");
    const auto categories = static_cast<std::int64_t>(column.categories.size());
    for (std::int32_t code : column.codes)
        if (code < -1 || code >= categories)
            throwFileError(
                out, object,
                "code " + std::to_string(code) + " is not -1 or a category number below " + std::to_string(categories));
    std::set<std::string> seen;
    for (const std::string& category : column.categories)
        if (!seen.insert(category).second) throwFileError(out, object, "category '" + category + "' is listed twice");
}

}  // namespace

ObsCategorical categoricalFromLabels(const std::string& name, const std::vector<std::int32_t>& labels,
                                     const std::vector<std::string>& clusterNames) {
    std::set<std::int32_t> used;
    for (std::int32_t label : labels) {
        if (label < -1) throw InvalidInput(name + ": cluster id " + std::to_string(label) + " is below -1 (noise)");
        if (label >= 0) used.insert(label);
    }
    ObsCategorical column{name, {}, {}};
    std::map<std::string, std::int32_t> codeOfName;
    std::map<std::int32_t, std::int32_t> codeOfId;
    for (std::int32_t id : used) {
        const auto k = static_cast<std::size_t>(id);
        const std::string text =
            k < clusterNames.size() && !clusterNames[k].empty() ? clusterNames[k] : std::to_string(id);
        const auto [it, added] = codeOfName.emplace(text, static_cast<std::int32_t>(column.categories.size()));
        if (added) column.categories.push_back(text);
        codeOfId[id] = it->second;
    }
    column.codes.reserve(labels.size());
    for (std::int32_t label : labels) column.codes.push_back(label < 0 ? -1 : codeOfId[label]);
    return column;
}

ObsCategorical categoricalFromMembership(const std::string& name, const std::vector<std::int32_t>& membership) {
    for (std::int32_t value : membership)
        if (value < -1 || value > 1)
            throw InvalidInput(name + ": membership value " + std::to_string(value) + " is not 0, 1 or -1");
    return {name, {"out", "in"}, membership};
}

#ifdef CLUSTERLENS_HAVE_HDF5

namespace {

using h5::Handle;

/// What the writer needs to know of the source's obs dataframe.
struct ObsFrame {
    std::size_t n = 0;
    std::vector<std::string> columnOrder;
    std::vector<std::string> links;  ///< names in the obs group (columns, the index, anndata 0.7's __categories)
};

ObsFrame inspectObs(const h5::File& file) {
    if (file.isDataset("/obs"))
        file.fail("/obs",
                  "is stored in the layout of anndata before 0.7 (one table dataset); re-save the file with "
                  "anndata 0.8 or later (adata.write_h5ad) to add columns");
    if (!file.isGroup("/obs")) file.fail("/obs", "not found: this is not an AnnData .h5ad file");
    const std::string encoding = file.stringAttribute("/obs", "encoding-type").value_or("");
    if (encoding != "dataframe")
        file.fail("/obs", "is not an AnnData dataframe (encoding-type '" + encoding + "', expected 'dataframe')");
    if (file.stringAttribute("/obs", "encoding-version").value_or("") == "0.1.0")
        file.fail("/obs",
                  "is in the layout of anndata 0.7 (encoding-version 0.1.0), which stores categories "
                  "differently; re-save the file with anndata 0.8 or later (adata.write_h5ad) to add columns");
    const std::string index = h5::join("/obs", file.stringAttribute("/obs", "_index").value_or("_index"));
    if (!file.isDataset(index)) file.fail(index, "the index of obs (its _index attribute) is not a dataset");
    const std::vector<std::uint64_t> shape = file.shape(index);
    if (shape.size() != 1) file.fail(index, "the index of obs is not one-dimensional");
    ObsFrame frame;
    frame.n = static_cast<std::size_t>(shape[0]);
    frame.columnOrder = file.stringsAttribute("/obs", "column-order").value_or(std::vector<std::string>{});
    frame.links = file.children("/obs");
    return frame;
}

ObsFrame inspectSource(const std::string& path) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const h5::File file(path);
    return inspectObs(file);
}

Handle utf8Strings() {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    return type;
}

/// `ordered` = False the way h5py stores a Python bool: an int8 enum {FALSE = 0, TRUE = 1}.
void writeFalse(hid_t owner, const std::string& out, const std::string& object) {
    Handle type(H5Tenum_create(H5T_NATIVE_INT8), H5Tclose);
    const std::int8_t no = 0, yes = 1;
    H5Tenum_insert(type.get(), "FALSE", &no);
    H5Tenum_insert(type.get(), "TRUE", &yes);
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(H5Acreate2(owner, "ordered", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), type.get(), &no) < 0)
        throwFileError(out, object + " attribute ordered", "could not be written (" + h5::innermostError() + ")");
}

/// Replaces obs's column-order (any type, or absent) by an array of UTF-8 strings.
void writeColumnOrder(hid_t obs, const std::string& out, const std::vector<std::string>& order) {
    if (H5Aexists(obs, "column-order") > 0 && H5Adelete(obs, "column-order") < 0)
        throwFileError(out, "/obs attribute column-order", "could not be replaced (" + h5::innermostError() + ")");
    Handle type = utf8Strings();
    const hsize_t count = order.size();
    Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    std::vector<const char*> pointers;
    for (const std::string& name : order) pointers.push_back(name.c_str());
    Handle attribute(H5Acreate2(obs, "column-order", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), type.get(), pointers.data()) < 0)
        throwFileError(out, "/obs attribute column-order", "could not be written (" + h5::innermostError() + ")");
}

void writeEncoding(const h5::Writer& w, hid_t owner, const std::string& object, const char* type) {
    w.attribute(owner, object, "encoding-type", std::string(type));
    w.attribute(owner, object, "encoding-version", std::string("0.2.0"));
}

/// pandas' code type: the narrowest signed integer that holds every category number and -1.
hid_t codeType(std::size_t categories) {
    if (categories <= 127) return H5T_STD_I8LE;
    if (categories <= 32767) return H5T_STD_I16LE;
    return H5T_STD_I32LE;
}

/// A group named as h5py names it: an ASCII link name, or a UTF-8 one when the name is not ASCII.
Handle namedGroup(hid_t parent, const std::string& name, const std::string& out, const std::string& object) {
    const bool ascii =
        std::all_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    Handle links(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    H5Pset_char_encoding(links.get(), ascii ? H5T_CSET_ASCII : H5T_CSET_UTF8);
    Handle group(H5Gcreate2(parent, name.c_str(), links.get(), H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!group.valid()) throwFileError(out, object, "the group could not be created (" + h5::innermostError() + ")");
    return group;
}

void writeCategorical(const h5::Writer& w, hid_t obs, const std::string& out, const ObsCategorical& column) {
    const std::string object = "/obs/" + column.name;
    Handle group = namedGroup(obs, column.name, out, object);
    writeEncoding(w, group.get(), object, "categorical");
    writeFalse(group.get(), out, object);
    w.strings(group.get(), object, "categories", column.categories);
    w.array(group.get(), object, "codes", column.codes, codeType(column.categories.size()));
    for (const auto& [name, encoding] : {std::pair{"categories", "string-array"}, std::pair{"codes", "array"}}) {
        Handle dataset(H5Dopen2(group.get(), name, H5P_DEFAULT), H5Dclose);
        writeEncoding(w, dataset.get(), object + "/" + name, encoding);
    }
}

/// Copies `source` to `temp` in blocks of 4 MiB, with a look at `control` (when given) before each
/// (a kernel-side copy of a gigabyte file could not be stopped).
void copyBytes(const std::string& source, const std::string& temp, const std::string& out, const JobControl* control) {
    std::ifstream in(source, std::ios::binary);
    std::ofstream copy(temp, std::ios::binary | std::ios::trunc);
    if (!in || !copy) throwFileError(out, "", "could not copy " + source + " (cannot open it or the temporary file)");
    std::vector<char> block(std::size_t{4} << 20);
    while (in) {
        if (control != nullptr) control->checkCancelled();
        in.read(block.data(), static_cast<std::streamsize>(block.size()));
        copy.write(block.data(), in.gcount());
    }
    copy.flush();
    if (in.bad() || !copy) throwFileError(out, "", "could not copy " + source + " (read or write error; disk full?)");
}

void addColumns(const std::string& temp, const std::string& out, const ObsFrame& frame,
                const std::vector<ObsCategorical>& columns, const JobControl* control) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    h5::Writer w(h5::Writer::Existing{}, temp, out);
    Handle obs(H5Gopen2(w.root(), "obs", H5P_DEFAULT), H5Gclose);
    if (!obs.valid()) throwFileError(out, "/obs", "could not be opened (" + h5::innermostError() + ")");
    std::vector<std::string> order = frame.columnOrder;
    for (const ObsCategorical& column : columns) {
        if (control != nullptr) control->checkCancelled();
        writeCategorical(w, obs.get(), out, column);
        order.push_back(column.name);
    }
    writeColumnOrder(obs.get(), out, order);
    obs.reset();
    // close() writes the whole file image; a cancel during the last column or the write still keeps
    // the copy from being renamed over `out`.
    if (control != nullptr) control->checkCancelled();
    w.close();
    if (control != nullptr) control->checkCancelled();
}

}  // namespace

std::size_t h5adObservationCount(const std::string& path) {
    return inspectSource(path).n;
}

ObsCategorical readH5adObsCategorical(const std::string& path, const std::string& name) {
    const std::lock_guard<std::mutex> lock(h5::libraryMutex());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const h5::File file(path);
    const std::string group = h5::join("/obs", name);
    if (!file.exists(group)) file.failMissing(group, "");
    const std::string encoding = file.stringAttribute(group, "encoding-type").value_or("");
    if (!file.isGroup(group) || encoding != "categorical")
        file.fail(group, "is not a categorical column (encoding-type '" + encoding + "')");
    ObsCategorical column{name, file.readStrings(h5::join(group, "categories")), {}};
    const std::vector<std::int64_t> codes = file.readIntegers(h5::join(group, "codes"));
    const auto categories = static_cast<std::int64_t>(column.categories.size());
    column.codes.reserve(codes.size());
    for (std::int64_t code : codes) {
        if (code < -1 || code >= categories)
            file.fail(h5::join(group, "codes"), "code " + std::to_string(code) + " is not -1 or a category number");
        column.codes.push_back(static_cast<std::int32_t>(code));
    }
    return column;
}

void writeH5adWithObsColumns(const std::string& source, const std::string& out,
                             const std::vector<ObsCategorical>& columns, const JobControl* control) {
    std::error_code ec;
    if (fs::exists(out, ec) && fs::equivalent(source, out, ec))
        throwFileError(out, "", "is the source file itself; the columns are written into a copy, choose another --out");
    const ObsFrame frame = inspectSource(source);
    if (columns.empty()) throwFileError(out, "", "no obs columns to add");
    std::set<std::string> names(frame.links.begin(), frame.links.end());
    names.insert(frame.columnOrder.begin(), frame.columnOrder.end());
    for (const ObsCategorical& column : columns) {
        validateColumn(out, column, frame.n);
        if (!names.insert(column.name).second)
            throwFileError(out, "obs column '" + column.name + "'",
                           "exists already (in " + source + " or twice in this export); choose another name");
    }
    writeFileAtomically(out, [&](const std::string& temp) {
        copyBytes(source, temp, out, control);
        addColumns(temp, out, frame, columns, control);
    });
}

#else

namespace {

[[noreturn]] void noHdf5(const std::string& path) {
    throwFileError(path, "", "this build of ClusterLens has no HDF5 support; .h5ad files cannot be read or written");
}

}  // namespace

ObsCategorical readH5adObsCategorical(const std::string& path, const std::string&) {
    noHdf5(path);
}

std::size_t h5adObservationCount(const std::string& path) {
    noHdf5(path);
}

void writeH5adWithObsColumns(const std::string& source, const std::string&, const std::vector<ObsCategorical>&,
                             const JobControl*) {
    noHdf5(source);
}

#endif  // CLUSTERLENS_HAVE_HDF5

}  // namespace clusterlens
