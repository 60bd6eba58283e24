// Labelings and populations written into a copy of an .h5ad file as categorical obs columns: the
// encoding is read back with the HDF5 C API (as anndata's reader would see it), every object of the
// source must come back bit-identical, and the project's own reader must read the copy as the source.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/io/h5ad_annotate.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::TempDir;
using testing::HasSubstr;

// tests/CMakeLists.txt gives this target HDF5's include directory when the engine has HDF5.
#if __has_include(<hdf5.h>)
#include <hdf5.h>
#define CLUSTERLENS_TEST_HDF5 1
#endif

TEST(H5adCategorical, LabelsBecomeTheClusterIdsThatOccurNamedWhenNamesAreGiven) {
    const ObsCategorical plain = categoricalFromLabels("leiden", {2, 0, -1, 5, 2});
    EXPECT_EQ(plain.categories, (std::vector<std::string>{"0", "2", "5"}));
    EXPECT_EQ(plain.codes, (std::vector<std::int32_t>{1, 0, -1, 2, 1}));

    // Cluster 1 has no name (empty) and falls back to its id; 0 and 3 share a name and a category.
    const ObsCategorical named = categoricalFromLabels("cells", {3, 0, 1, 2, -1}, {"T", "", "B", "T"});
    EXPECT_EQ(named.name, "cells");
    EXPECT_EQ(named.categories, (std::vector<std::string>{"T", "1", "B"}));
    EXPECT_EQ(named.codes, (std::vector<std::int32_t>{0, 0, 1, 2, -1}));

    EXPECT_THROW(categoricalFromLabels("x", {0, -2}), InvalidInput);
}

TEST(H5adCategorical, MembershipIsOutOrInAndNotAnalysedIsMissing) {
    const ObsCategorical column = categoricalFromMembership("T cells", {1, 0, -1, 1});
    EXPECT_EQ(column.categories, (std::vector<std::string>{"out", "in"}));
    EXPECT_EQ(column.codes, (std::vector<std::int32_t>{1, 0, -1, 1}));
    EXPECT_THROW(categoricalFromMembership("x", {2}), InvalidInput);
}

#ifdef CLUSTERLENS_TEST_HDF5

namespace {

constexpr std::size_t kCells = 80;  // observations of tests/data/h5ad/pbmc_small_*.h5ad

/// Owns an hid_t; closes it with the given function.
struct Id {
    hid_t id;
    herr_t (*close)(hid_t);
    ~Id() {
        if (id >= 0) close(id);
    }
    operator hid_t() const { return id; }
};

void reclaimStrings(hid_t type, hid_t space, std::vector<char*>& texts) {
    if (texts.empty()) return;
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(type, space, H5P_DEFAULT, texts.data());
#else
    H5Dvlen_reclaim(type, space, H5P_DEFAULT, texts.data());
#endif
}

/// The bytes of a dataset or attribute as stored (its own type as memory type); variable-length
/// strings as the texts joined by '\n'. Prefixed with the type's class and size.
std::string contentOf(hid_t object, bool isAttribute) {
    Id type{isAttribute ? H5Aget_type(object) : H5Dget_type(object), H5Tclose};
    Id space{isAttribute ? H5Aget_space(object) : H5Dget_space(object), H5Sclose};
    const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    std::string text = std::to_string(H5Tget_class(type)) + ":" + std::to_string(H5Tget_size(type)) + ":";
    const auto read = [&](hid_t memoryType, void* buffer) {
        return isAttribute ? H5Aread(object, memoryType, buffer)
                           : H5Dread(object, memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
    };
    if (H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0) {
        std::vector<char*> texts(count, nullptr);
        if (count > 0) read(type, texts.data());
        for (const char* t : texts) text += std::string(t != nullptr ? t : "") + "\n";
        reclaimStrings(type, space, texts);
        return text;
    }
    std::string bytes(count * H5Tget_size(type), '\0');
    if (count > 0) read(type, bytes.data());
    return text + bytes;
}

using Fingerprint = std::map<std::string, std::string>;  // "/path" or "/path@attribute" -> content

herr_t addAttribute(hid_t owner, const char* name, const H5A_info_t*, void* data) {
    auto* entry = static_cast<std::pair<Fingerprint*, std::string>*>(data);
    Id attribute{H5Aopen(owner, name, H5P_DEFAULT), H5Aclose};
    (*entry->first)[entry->second + "@" + name] = contentOf(attribute, true);
    return 0;
}

#if H5_VERSION_GE(1, 12, 0)
using ObjectInfo = H5O_info2_t;
#define CLUSTERLENS_H5OVISIT H5Ovisit3
#else
using ObjectInfo = H5O_info_t;
#define CLUSTERLENS_H5OVISIT H5Ovisit2
#endif

herr_t addObject(hid_t root, const char* name, const ObjectInfo* info, void* data) {
    auto* print = static_cast<Fingerprint*>(data);
    const std::string path = std::string(name) == "." ? "/" : "/" + std::string(name);
    Id object{H5Oopen(root, name, H5P_DEFAULT), H5Oclose};
    if (info->type == H5O_TYPE_DATASET) (*print)[path] = contentOf(object, false);
    std::pair<Fingerprint*, std::string> entry{print, path};
    H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, addAttribute, &entry);
    return 0;
}

/// Every dataset's and attribute's stored bytes in a file.
Fingerprint fingerprint(const std::string& path) {
    Id file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    Fingerprint print;
    CLUSTERLENS_H5OVISIT(file, H5_INDEX_NAME, H5_ITER_INC, addObject, &print, H5O_INFO_BASIC);
    return print;
}

std::vector<std::string> stringsOf(hid_t object, bool isAttribute) {
    Id type{H5Tcopy(H5T_C_S1), H5Tclose};
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    Id space{isAttribute ? H5Aget_space(object) : H5Dget_space(object), H5Sclose};
    std::vector<char*> texts(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)), nullptr);
    if (isAttribute)
        H5Aread(object, type, texts.data());
    else
        H5Dread(object, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data());
    std::vector<std::string> result(texts.begin(), texts.end());
    reclaimStrings(type, space, texts);
    return result;
}

std::string stringAttribute(hid_t file, const std::string& object, const char* name) {
    Id attribute{H5Aopen_by_name(file, object.c_str(), name, H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
    const std::vector<std::string> values = stringsOf(attribute, true);
    return values.size() == 1 ? values[0] : "<" + std::to_string(values.size()) + " values>";
}

std::vector<std::string> columnOrder(const std::string& path) {
    Id file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    Id attribute{H5Aopen_by_name(file, "/obs", "column-order", H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
    return stringsOf(attribute, true);
}

/// A categorical column as read with the C API, plus the facts of its encoding.
struct StoredCategorical {
    std::string encoding, version, categoriesEncoding, codesEncoding;
    bool orderedIsFalseBoolEnum = false;
    std::size_t codeBytes = 0;
    std::vector<std::string> categories;
    std::vector<std::int32_t> codes;
};

StoredCategorical readCategorical(const std::string& path, const std::string& name) {
    Id file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    const std::string group = "/obs/" + name;
    StoredCategorical c;
    c.encoding = stringAttribute(file, group, "encoding-type");
    c.version = stringAttribute(file, group, "encoding-version");
    c.categoriesEncoding = stringAttribute(file, group + "/categories", "encoding-type") + " " +
                           stringAttribute(file, group + "/categories", "encoding-version");
    c.codesEncoding = stringAttribute(file, group + "/codes", "encoding-type") + " " +
                      stringAttribute(file, group + "/codes", "encoding-version");
    Id ordered{H5Aopen_by_name(file, group.c_str(), "ordered", H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
    Id orderedType{H5Aget_type(ordered), H5Tclose};
    std::int8_t value = -1;
    H5Aread(ordered, H5T_NATIVE_INT8, &value);
    char member[8] = {};
    c.orderedIsFalseBoolEnum = H5Tget_class(orderedType) == H5T_ENUM && H5Tget_size(orderedType) == 1 &&
                               H5Tenum_nameof(orderedType, &value, member, sizeof member) >= 0 &&
                               std::string(member) == "FALSE";
    Id categories{H5Dopen2(file, (group + "/categories").c_str(), H5P_DEFAULT), H5Dclose};
    c.categories = stringsOf(categories, false);
    Id codes{H5Dopen2(file, (group + "/codes").c_str(), H5P_DEFAULT), H5Dclose};
    Id codeType{H5Dget_type(codes), H5Tclose};
    c.codeBytes =
        H5Tget_class(codeType) == H5T_INTEGER && H5Tget_sign(codeType) == H5T_SGN_2 ? H5Tget_size(codeType) : 0;
    Id space{H5Dget_space(codes), H5Sclose};
    c.codes.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    H5Dread(codes, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.codes.data());
    return c;
}

/// An HDF5 type as h5dump describes it, without the sizes that depend on the data: class, string
/// variable or fixed length, character set and padding, integer sign, size and byte order, enum members
/// over their base type.
std::string typeText(hid_t type) {
    switch (H5Tget_class(type)) {
        case H5T_STRING:
            return std::string("string ") + (H5Tis_variable_str(type) > 0 ? "variable " : "fixed ") +
                   (H5Tget_cset(type) == H5T_CSET_UTF8 ? "utf-8 " : "ascii ") + "pad " +
                   std::to_string(H5Tget_strpad(type));
        case H5T_INTEGER:
            return std::string(H5Tget_sign(type) == H5T_SGN_2 ? "int" : "uint") +
                   std::to_string(8 * H5Tget_size(type)) + (H5Tget_order(type) == H5T_ORDER_LE ? " le" : " be");
        case H5T_ENUM: {
            std::string text = "enum {";
            for (int k = 0; k < H5Tget_nmembers(type); ++k) {
                char* name = H5Tget_member_name(type, static_cast<unsigned>(k));
                text += std::string(name) + " ";
                H5free_memory(name);
            }
            Id base{H5Tget_super(type), H5Tclose};
            return text + "} of " + typeText(base);
        }
        default:
            return "class " + std::to_string(H5Tget_class(type)) + " size " + std::to_string(H5Tget_size(type));
    }
}

herr_t describeAttribute(hid_t owner, const char* name, const H5A_info_t* info, void* data) {
    Id attribute{H5Aopen(owner, name, H5P_DEFAULT), H5Aclose};
    Id type{H5Aget_type(attribute), H5Tclose};
    Id space{H5Aget_space(attribute), H5Sclose};
    std::string& text = *static_cast<std::string*>(data);
    text += std::string("  @") + name + (info->cset == H5T_CSET_UTF8 ? " (utf-8 name): " : ": ") + typeText(type) +
            (H5Sget_simple_extent_type(space) == H5S_SCALAR ? " scalar" : " array");
    if (H5Tget_class(type) == H5T_STRING && H5Sget_simple_extent_type(space) == H5S_SCALAR)
        text += " = " + stringsOf(attribute, true).front();
    if (H5Tget_class(type) == H5T_ENUM) {
        std::int8_t value = -1;
        char member[16] = {};
        H5Aread(attribute, H5T_NATIVE_INT8, &value);
        if (H5Tenum_nameof(type, &value, member, sizeof member) >= 0) text += std::string(" = ") + member;
    }
    text += "\n";
    return 0;
}

/// The encoding of the object at `path` and of the objects in it (a group's members by name), as
/// `h5dump -A` lists it without data and sizes: kind, link name character set, type, attributes with
/// their types and string values.
std::string encodingOf(hid_t file, const std::string& path) {
    std::string text;
    const auto describe = [&](const std::string& object, const std::string& label) {
        H5O_info_t info;
        H5Oget_info_by_name2(file, object.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT);
        H5L_info_t link;
        H5Lget_info(file, object.c_str(), &link, H5P_DEFAULT);
        Id handle{H5Oopen(file, object.c_str(), H5P_DEFAULT), H5Oclose};
        text += label + (link.cset == H5T_CSET_UTF8 ? " (utf-8 link)" : " (ascii link)");
        if (info.type == H5O_TYPE_DATASET) {
            Id type{H5Dget_type(handle), H5Tclose};
            text += " dataset " + typeText(type);
        } else {
            text += " group";
        }
        text += "\n";
        H5Aiterate2(handle, H5_INDEX_NAME, H5_ITER_INC, nullptr, describeAttribute, &text);
        return info.type;
    };
    if (describe(path, ".") != H5O_TYPE_GROUP) return text;
    Id group{H5Gopen2(file, path.c_str(), H5P_DEFAULT), H5Gclose};
    H5G_info_t members;
    H5Gget_info(group, &members);
    for (hsize_t k = 0; k < members.nlinks; ++k) {
        char name[256] = {};
        H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, k, name, sizeof name, H5P_DEFAULT);
        describe(path + "/" + name, name);
    }
    return text;
}

std::string encodingOf(const std::string& path, const std::string& object) {
    Id file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    return encodingOf(file, object);
}

/// Clusters 0..3 with noise, named as a session names them.
ObsCategorical clusters(const std::string& name = "ClusterLens clusters") {
    std::vector<std::int32_t> labels(kCells);
    for (std::size_t i = 0; i < kCells; ++i) labels[i] = i % 7 == 0 ? -1 : static_cast<std::int32_t>(i % 4);
    return categoricalFromLabels(name, labels, {"T cells", "B cells", "NK", "Monocytes"});
}

ObsCategorical population() {
    std::vector<std::int32_t> membership(kCells, 0);
    for (std::size_t i = 10; i < 30; ++i) membership[i] = 1;
    return categoricalFromMembership("gate 1", membership);
}

std::string errorOf(const std::string& source, const std::string& out, const std::vector<ObsCategorical>& columns) {
    try {
        writeH5adWithObsColumns(source, out, columns);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

/// A minimal AnnData-like file whose obs group has the given encoding-version and, when
/// emptyFloatOrder, h5py's empty column-order (a float64 array of length 0), as anndata writes it for
/// a dataframe without columns.
void writeMinimalH5ad(const std::string& path, const std::string& obsVersion, bool emptyFloatOrder) {
    Id file{H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose};
    Id obs{H5Gcreate2(file, "obs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose};
    Id text{H5Tcopy(H5T_C_S1), H5Tclose};
    H5Tset_size(text, H5T_VARIABLE);
    Id scalar{H5Screate(H5S_SCALAR), H5Sclose};
    for (const auto& [name, value] : std::map<std::string, std::string>{
             {"encoding-type", "dataframe"}, {"encoding-version", obsVersion}, {"_index", "_index"}}) {
        Id attribute{H5Acreate2(obs, name.c_str(), text, scalar, H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
        const char* pointer = value.c_str();
        H5Awrite(attribute, text, &pointer);
    }
    const hsize_t cells = 3, none = 0;
    Id cellSpace{H5Screate_simple(1, &cells, nullptr), H5Sclose};
    Id index{H5Dcreate2(obs, "_index", text, cellSpace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose};
    const char* names[] = {"cellA", "cellB", "cellC"};
    H5Dwrite(index, text, H5S_ALL, H5S_ALL, H5P_DEFAULT, names);
    if (emptyFloatOrder) {
        Id emptySpace{H5Screate_simple(1, &none, nullptr), H5Sclose};
        Id order{H5Acreate2(obs, "column-order", H5T_IEEE_F64LE, emptySpace, H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
    }
}

}  // namespace

TEST(H5adAnnotate, WritesCategoricalsInAnnDataEncodingAndAppendsThemToColumnOrder) {
    const TempDir dir;
    const std::string source = dataPath("h5ad/pbmc_small_csr.h5ad");
    const std::string out = dir.file("annotated.h5ad");
    writeH5adWithObsColumns(source, out, {clusters(), population()});

    const StoredCategorical c = readCategorical(out, "ClusterLens clusters");
    EXPECT_EQ(c.encoding, "categorical");
    EXPECT_EQ(c.version, "0.2.0");
    EXPECT_TRUE(c.orderedIsFalseBoolEnum);
    EXPECT_EQ(c.categoriesEncoding, "string-array 0.2.0");
    EXPECT_EQ(c.codesEncoding, "array 0.2.0");
    EXPECT_EQ(c.codeBytes, 1u);
    EXPECT_EQ(c.categories, (std::vector<std::string>{"T cells", "B cells", "NK", "Monocytes"}));
    ASSERT_EQ(c.codes.size(), kCells);
    EXPECT_EQ(c.codes[0], -1);
    EXPECT_EQ(c.codes[1], 1);
    EXPECT_EQ(c.codes[6], 2);
    EXPECT_EQ(c.codes[7], -1);
    EXPECT_EQ(c.codes[79], 3);

    const StoredCategorical p = readCategorical(out, "gate 1");
    EXPECT_EQ(p.categories, (std::vector<std::string>{"out", "in"}));
    EXPECT_EQ(p.codes[9], 0);
    EXPECT_EQ(p.codes[10], 1);
    EXPECT_EQ(p.codes[29], 1);
    EXPECT_EQ(p.codes[30], 0);

    std::vector<std::string> expected = columnOrder(source);
    ASSERT_EQ(expected, (std::vector<std::string>{"n_counts", "group"}));
    expected.insert(expected.end(), {"ClusterLens clusters", "gate 1"});
    EXPECT_EQ(columnOrder(out), expected);
}

TEST(H5adAnnotate, NewColumnsAreEncodedAsAnnDataEncodedTheFilesOwnCategorical) {
    // obs/group of the test file was written by anndata 0.8 (h5py): each new column must list the same
    // objects, types, attributes and attribute values, and obs keeps anndata's dataframe encoding.
    const TempDir dir;
    const std::string source = dataPath("h5ad/pbmc_small_csr.h5ad");
    const std::string out = dir.file("annotated.h5ad");
    const std::string unicode = "CD4\u207a T \u00fc";
    writeH5adWithObsColumns(source, out, {clusters(), population(), categoricalFromLabels(unicode, clusters().codes)});
    const std::string anndata = encodingOf(source, "/obs/group");
    EXPECT_THAT(anndata, HasSubstr("@encoding-type: string variable utf-8 pad 0 scalar = categorical"));
    EXPECT_THAT(anndata, HasSubstr("@ordered: enum {FALSE TRUE } of int8 le scalar = FALSE"));
    EXPECT_THAT(anndata, HasSubstr("codes (ascii link) dataset int8 le"));
    EXPECT_EQ(encodingOf(out, "/obs/ClusterLens clusters"), anndata);
    EXPECT_EQ(encodingOf(out, "/obs/gate 1"), anndata);
    // h5py names a link in UTF-8 exactly when its name is not ASCII.
    std::string utf8 = anndata;
    utf8.replace(utf8.find(". (ascii link)"), 14, ". (utf-8 link)");
    EXPECT_EQ(encodingOf(out, "/obs/" + unicode), utf8);

    // obs: the dataframe's attributes as anndata wrote them, column-order extended with the new names.
    Id file{H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
    Id obs{H5Gopen2(file, "/obs", H5P_DEFAULT), H5Gclose};
    std::string attributes;
    H5Aiterate2(obs, H5_INDEX_NAME, H5_ITER_INC, nullptr, describeAttribute, &attributes);
    EXPECT_EQ(attributes,
              "  @_index: string variable utf-8 pad 0 scalar = _index\n"
              "  @column-order: string variable utf-8 pad 0 array\n"
              "  @encoding-type: string variable utf-8 pad 0 scalar = dataframe\n"
              "  @encoding-version: string variable utf-8 pad 0 scalar = 0.2.0\n");
    EXPECT_EQ(columnOrder(out),
              (std::vector<std::string>{"n_counts", "group", "ClusterLens clusters", "gate 1", unicode}));
    EXPECT_EQ(readCategorical(out, unicode).codes, clusters().codes);
}

TEST(H5adAnnotate, EveryObjectOfTheSourceStaysBitIdenticalAndTheSourceIsUntouched) {
    const TempDir dir;
    for (const char* name :
         {"h5ad/pbmc_small_csr.h5ad", "h5ad/pbmc_small_csr_gzip.h5ad", "h5ad/pbmc_small_dense.h5ad"}) {
        SCOPED_TRACE(name);
        const std::string source = dataPath(name);
        const std::string hash = sha256File(source);
        const std::string out = dir.file("copy.h5ad");
        writeH5adWithObsColumns(source, out, {clusters()});
        EXPECT_EQ(sha256File(source), hash);
        const Fingerprint before = fingerprint(source);
        const Fingerprint after = fingerprint(out);
        ASSERT_GT(before.size(), 20u);
        for (const auto& [key, content] : before) {
            if (key == "/obs@column-order") continue;
            ASSERT_TRUE(after.count(key)) << key;
            EXPECT_EQ(after.at(key), content) << key;
        }
        for (const auto& [key, content] : after)
            if (!before.count(key)) {
                EXPECT_TRUE(key.starts_with("/obs/ClusterLens clusters")) << key;
            }
    }
}

TEST(H5adAnnotate, TheProjectsReaderReadsTheCopyAsTheSource) {
    const TempDir dir;
    const std::string source = dataPath("h5ad/pbmc_small_csr_gzip.h5ad");
    const std::string out = dir.file("copy.h5ad");
    writeH5adWithObsColumns(source, out, {clusters(), population()});
    const Dataset original = readDataset(source);
    const Dataset copy = readDataset(out);
    EXPECT_EQ(copy.values, original.values);
    EXPECT_EQ(copy.features, original.features);
    EXPECT_EQ(copy.pointNames, original.pointNames);
    ASSERT_EQ(copy.embeddings.size(), 1u);
    EXPECT_EQ(copy.embeddings[0].values, original.embeddings[0].values);
    EXPECT_EQ(copy.warnings, original.warnings);
    EXPECT_EQ(h5adObservationCount(out), kCells);
    const ObsCategorical written = clusters();
    const ObsCategorical back = readH5adObsCategorical(out, written.name);
    EXPECT_EQ(back.categories, written.categories);
    EXPECT_EQ(back.codes, written.codes);
}

TEST(H5adAnnotate, ReadsACategoricalThatAnnDataWrote) {
    // obs/group of the test file was written by anndata: categories, int8 codes.
    const ObsCategorical group = readH5adObsCategorical(dataPath("h5ad/pbmc_small_csr.h5ad"), "group");
    EXPECT_EQ(group.categories.size(), 2u);
    ASSERT_EQ(group.codes.size(), kCells);
    for (std::int32_t code : group.codes) EXPECT_TRUE(code == 0 || code == 1);
    try {
        readH5adObsCategorical(dataPath("h5ad/pbmc_small_csr.h5ad"), "n_counts");
        FAIL() << "n_counts is numeric";
    } catch (const InvalidInput& e) {
        EXPECT_THAT(e.what(), HasSubstr("/obs/n_counts: is not a categorical column"));
    }
}

TEST(H5adAnnotate, ManyCategoriesGetWiderCodes) {
    const TempDir dir;
    ObsCategorical wide{"wide", {}, std::vector<std::int32_t>(kCells)};
    for (int k = 0; k < 200; ++k) wide.categories.push_back("c" + std::to_string(k));
    for (std::size_t i = 0; i < kCells; ++i) wide.codes[i] = static_cast<std::int32_t>(i * 2);
    const std::string out = dir.file("wide.h5ad");
    writeH5adWithObsColumns(dataPath("h5ad/pbmc_small_csr.h5ad"), out, {wide});
    const StoredCategorical c = readCategorical(out, "wide");
    EXPECT_EQ(c.codeBytes, 2u);
    EXPECT_EQ(c.codes, wide.codes);
}

TEST(H5adAnnotate, EmptyNumericColumnOrderBecomesAStringArray) {
    const TempDir dir;
    const std::string source = dir.file("minimal.h5ad");
    writeMinimalH5ad(source, "0.2.0", true);
    EXPECT_EQ(h5adObservationCount(source), 3u);
    const std::string out = dir.file("out.h5ad");
    writeH5adWithObsColumns(source, out, {categoricalFromLabels("k", {0, 1, 0})});
    EXPECT_EQ(columnOrder(out), (std::vector<std::string>{"k"}));
    EXPECT_EQ(readCategorical(out, "k").codes, (std::vector<std::int32_t>{0, 1, 0}));
}

TEST(H5adAnnotate, RefusesWhatItCannotWriteAndLeavesNoFile) {
    const TempDir dir;
    const std::string source = dataPath("h5ad/pbmc_small_csr.h5ad");
    const std::string out = dir.file("out.h5ad");
    EXPECT_THAT(errorOf(source, out, {clusters("group")}), HasSubstr("obs column 'group': exists already"));
    EXPECT_THAT(errorOf(source, out, {clusters(), clusters()}), HasSubstr("exists already"));
    EXPECT_THAT(errorOf(source, out, {clusters("a/b")}), HasSubstr("cannot contain '/'"));
    EXPECT_THAT(errorOf(source, out, {categoricalFromLabels("k", {0, 1})}), HasSubstr("has 2 values, the file 80"));
    ObsCategorical repeated = clusters();
    repeated.categories[1] = "T cells";
    EXPECT_THAT(errorOf(source, out, {repeated}), HasSubstr("category 'T cells' is listed twice"));
    ObsCategorical outOfRange = clusters();
    outOfRange.codes[3] = 4;
    EXPECT_THAT(errorOf(source, out, {outOfRange}), HasSubstr("code 4 is not -1"));
    EXPECT_THAT(errorOf(source, out, {}), HasSubstr("no obs columns"));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));

    const std::string copy = dir.file("same.h5ad");
    std::filesystem::copy_file(source, copy);
    const std::string hash = sha256File(copy);
    EXPECT_THAT(errorOf(copy, copy, {clusters()}), HasSubstr("is the source file itself"));
    EXPECT_EQ(sha256File(copy), hash);
}

TEST(H5adAnnotate, AFullDiskIsAnErrorAndLeavesNoFile) {
    // The copy of the source fits; the copy with its new columns does not. HDF5 never writes to the disk
    // itself (the file is changed in memory), so its failure cannot leave a file id behind.
    const TempDir dir;
    const std::string source = dataPath("h5ad/pbmc_small_csr.h5ad");
    const std::string out = dir.file("out.h5ad");
    std::string message;
    {
        const test::FileSizeLimit fullDisk(std::filesystem::file_size(source) + 64);
        message = errorOf(source, out, {clusters()});
    }
    EXPECT_THAT(message, HasSubstr(out));
    EXPECT_THAT(message, HasSubstr("could not be written"));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
    writeH5adWithObsColumns(source, out, {clusters()});  // the same export with room succeeds
    EXPECT_EQ(readH5adObsCategorical(out, "ClusterLens clusters").codes, clusters().codes);
}

TEST(H5adAnnotate, RefusesObsLayoutsOfAnnDataBefore08) {
    const TempDir dir;
    const std::string old = dir.file("anndata07.h5ad");
    writeMinimalH5ad(old, "0.1.0", false);
    EXPECT_THAT(errorOf(old, dir.file("out.h5ad"), {categoricalFromLabels("k", {0, 1, 0})}), HasSubstr("anndata 0.7"));
    const std::string plain = dir.file("plain.h5");
    { Id file{H5Fcreate(plain.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose}; }
    EXPECT_THAT(errorOf(plain, dir.file("out.h5ad"), {categoricalFromLabels("k", {0})}),
                HasSubstr("/obs: not found: this is not an AnnData .h5ad file"));
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5ad")));
}

#endif  // CLUSTERLENS_TEST_HDF5
