// Writes the seed corpus of every fuzz target: OUT/<target>/<seed>. The seeds are small files of the
// repository (tests/golden/data, resources/demo) and files written by the engine's own writers or by
// the tests' independent FCS builder, each followed by the option byte its target reads last
// (fuzz_<target>.cpp says what the byte means).
//   clusterlens_fuzz_seeds SOURCE_DIR OUT_DIR

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/io/labels.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/session/session_file.hpp"
#include "fcs_builder.hpp"
#include "hdf5_program.hpp"
#include "seed_hdf5.hpp"
#include "session_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using namespace clusterlens;

std::string readWhole(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The first `lines` lines of a text file.
std::string headOf(const fs::path& path, std::size_t lines) {
    const std::string text = readWhole(path);
    std::size_t end = 0;
    for (std::size_t k = 0; k < lines && end != std::string::npos; ++k) end = text.find('\n', end == 0 ? 0 : end + 1);
    return end == std::string::npos ? text : text.substr(0, end + 1);
}

std::string gzipped(const std::string& text, const fs::path& scratch) {
    const std::string path = (scratch / "seed.gz").string();
    gzFile out = gzopen(path.c_str(), "wb");
    if (out == nullptr ||
        gzwrite(out, text.data(), static_cast<unsigned>(text.size())) != static_cast<int>(text.size()) ||
        gzclose(out) != Z_OK)
        throw std::runtime_error("cannot gzip into " + path);
    return readWhole(path);
}

/// Writes a file with `write`, then returns its bytes.
template <typename Write>
std::string written(const fs::path& scratch, const std::string& name, Write&& write) {
    const std::string path = (scratch / name).string();
    write(path);
    return readWhole(path);
}

class Corpus {
public:
    explicit Corpus(fs::path out) : m_out(std::move(out)) {}
    /// OUT/TARGET/NAME holds `bytes` (targets without an option byte).
    void add(const std::string& target, const std::string& name, const std::string& bytes) const {
        fs::create_directories(m_out / target);
        std::ofstream file(m_out / target / name, std::ios::binary);
        file << bytes;
        if (!file) throw std::runtime_error("cannot write the seed " + (m_out / target / name).string());
    }
    /// OUT/TARGET/NAME holds `bytes` and the option byte.
    void add(const std::string& target, const std::string& name, const std::string& bytes, unsigned char option) const {
        add(target, name, bytes + static_cast<char>(option));
    }

private:
    fs::path m_out;
};

Dataset smallDataset() {
    Dataset data;
    data.n = 12;
    data.d = 3;
    data.features = {"FSC-A", "CD3", "CD4"};
    for (std::size_t i = 0; i < data.n * data.d; ++i) data.values.push_back(static_cast<float>(i * 37 % 101) / 7.0f);
    data.labels = {0, 1, 1, 2, 0, 0, 1, 2, 2, 1, 0, 1};
    data.labelNames = {"B", "T", "NK"};
    data.provenance.path = "seed";
    return data;
}

void fcsSeeds(const Corpus& corpus, const fs::path& scratch) {
    using test::listMode;
    const Dataset data = smallDataset();
    ExportSelection selection;
    selection.channels.push_back({"cluster", ChannelKind::ClusterIds, {0, 1, 1, 2, 0, 0, 1, 2, 2, 1, 0, -1}});
    const std::string engine =
        written(scratch, "seed.fcs", [&](const std::string& p) { writeFcs(p, data, selection); });
    corpus.add("fcs", "engine_float31", engine, 0x07);
    corpus.add("fcs", "engine_float31_strict", engine, 0x00);
    test::FcsBuilder integers = listMode("I", "4,3,2,1", 3, {16, 16});
    integers.version = "2.0";
    integers.data = std::string("\x00\x01\x00\x02\x01\x00\x02\x00\xff\xff\x00\x00", 12);
    corpus.add("fcs", "int16_big_endian_20", integers.build(), 0x07);
    test::FcsBuilder doubles = listMode("D", "1,2,3,4", 2, {64, 64});
    for (double v : {1.5, -2.0, 3.25, 1e6}) doubles.data += test::encode(v, false);
    doubles.version = "3.0";
    corpus.add("fcs", "double_30", doubles.build(), 0x07);
    test::FcsBuilder spill = listMode("F", "1,2,3,4", 2, {32, 32, 32});
    spill.keywords.emplace_back("$SPILLOVER", "2,ch3,ch1,1,0.1,0.2,1");
    for (float v : {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}) spill.data += test::encode(v, false);
    corpus.add("fcs", "float_spillover", spill.build(), 0x01);
}

void textSeeds(const Corpus& corpus, const fs::path& source, const fs::path& scratch) {
    const fs::path golden = source / "tests/golden/data";
    const std::string random = readWhole(golden / "random_50x2.data.csv");
    corpus.add("text", "random_50x2", random, 0x00);
    corpus.add("text", "random_50x2_gz", gzipped(random, scratch), 0x03);
    corpus.add("text", "hepta_head", headOf(golden / "hepta.data.csv", 30), 0x02);
    const std::string demo = headOf(source / "resources/demo/aria_facs_6052.csv", 25);
    corpus.add("text", "aria_demo_head", demo, 0x00);
    corpus.add("text", "aria_demo_head_gz", gzipped(demo, scratch), 0x00);
    Dataset data = smallDataset();
    data.pointNames = {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"};
    data.annotations = {{"cell", Annotation::Role::PointNames, {}}, {"class", Annotation::Role::Labels, {}}};
    data.labelSource = "class";
    const std::string table = written(scratch, "seed.csv", [&](const std::string& p) { writeCsv(p, data); });
    corpus.add("text", "engine_csv_label_last", table, 0x04);
    corpus.add("text", "engine_csv_label_name", table, 0x0c);
    corpus.add("text", "tsv_with_na", "a\tb\tc\n1\tNA\t3\n4\t5\t6\n7\t8\t9\n", 0x11);
    corpus.add("text", "sklearn_layout", "3,2,setosa,versicolor\n5.1,3.5,0\n4.9,3.0,1\n4.7,3.2,0\n", 0x00);
}

void binarySeeds(const Corpus& corpus) {
    std::string bytes = test::encode(std::uint64_t{3}, false) + test::encode(std::uint64_t{4}, false);
    for (int k = 0; k < 12; ++k) bytes += test::encode(k * 0.5 - 1.0, false);
    corpus.add("binary", "thesis_4x3", bytes);
}

void linkageAndLabelSeeds(const Corpus& corpus, const fs::path& source, const fs::path& scratch) {
    const fs::path golden = source / "tests/golden/data";
    for (const std::string method : {"single", "centroid", "ward"})
        corpus.add("linkage", "random_50x2_" + method, readWhole(golden / ("random_50x2." + method + ".csv")));
    corpus.add("linkage", "thesis_4_leaves", "0 1 0.5\n2 3 0.75\n4 5 1.5\n");
    corpus.add("linkage", "hclust_write_csv",
               "\"\",\"V1\",\"V2\",\"V3\"\n\"1\",-1,-2,0.5\n\"2\",-3,-4,0.75\n\"3\",1,2,1.5\n");
    const std::vector<std::int32_t> labels = {0, 1, 1, -1, 2, 0};
    const std::string csv = written(scratch, "labels.csv", [&](const std::string& p) { writeLabelsCsv(p, labels); });
    corpus.add("labels", "index_label_csv", csv, 6);
    corpus.add("labels", "one_per_line", "# groups\n0\n1\n\n1\n2\n", 0);
    corpus.add("apriori", "groups_of_6", "0\n1\n1\n2\n2\n0\n", 4);
    corpus.add("apriori", "index_group_csv_8", "index,group\n0,1\n1,1\n2,1\n3,0\n4,2\n5,2\n6,3\n7,3\n", 6);
}

void sessionSeeds(const Corpus& corpus, const fs::path& scratch) {
    Session session = test::richSession(1);
    const std::string rich = (scratch / "rich.clusterlens").string();
    writeSession(rich, session);
    corpus.add("session", "rich_file", readWhole(rich), 0);
    corpus.add("session", "rich_program", fuzz::describeHdf5File(rich), 1);
    Session embedded;
    embedded.data = session.data;
    embedded.data.embedded = EmbeddedData{std::vector<float>(40 * 3, 0.25f), session.data.features};
    embedded.populations = {session.populations.front()};
    const std::string small = (scratch / "embedded.clusterlens").string();
    writeSession(small, embedded);
    corpus.add("session", "embedded_file", readWhole(small), 0);
    corpus.add("session", "embedded_program", fuzz::describeHdf5File(small), 1);
}

void hdf5Seeds(const Corpus& corpus, const fs::path& scratch) {
    const auto seed = [&](const char* name, unsigned char option, void (*write)(const std::string&)) {
        const std::string path = (scratch / (std::string(name) + ".h5")).string();
        write(path);
        corpus.add("hdf5", name, fuzz::describeHdf5File(path), option);
    };
    seed("dense_named", 0x00, fuzzseeds::writeDense);
    seed("dense_named_option", 0x06, fuzzseeds::writeDense);
    seed("tenx_v3", 0x00, fuzzseeds::writeTenx);
    seed("h5ad_dense_umap", 0x01, fuzzseeds::writeAnnDataDense);
    seed("h5ad_dense_embedding", 0x09, fuzzseeds::writeAnnDataDense);
    seed("h5ad_csr", 0x01, fuzzseeds::writeAnnDataCsr);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: " << argv[0] << " SOURCE_DIR OUT_DIR\n";
        return 2;
    }
    try {
        const fs::path source = argv[1], out = argv[2];
        const fs::path scratch = out / ".scratch";
        fs::create_directories(scratch);
        const Corpus corpus(out);
        fcsSeeds(corpus, scratch);
        textSeeds(corpus, source, scratch);
        binarySeeds(corpus);
        linkageAndLabelSeeds(corpus, source, scratch);
        sessionSeeds(corpus, scratch);
        hdf5Seeds(corpus, scratch);
        fs::remove_all(scratch);
    } catch (const std::exception& error) {
        std::cerr << "clusterlens_fuzz_seeds: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
