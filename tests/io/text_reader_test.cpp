#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"
#include "test_support.hpp"

using namespace clusterlens;
using clusterlens::test::dataPath;
using clusterlens::test::TempDir;
using clusterlens::test::writeFile;
using testing::AllOf;
using testing::HasSubstr;

namespace {

std::string errorOf(const std::string& path, const ReadOptions& options = {}) {
    try {
        readDataset(path, options);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(TextReader, ReadsSklearnIrisWithClassLabels) {
    Dataset data = readDataset(dataPath("tables/iris.csv"));
    EXPECT_EQ(data.n, 150u);
    EXPECT_EQ(data.d, 4u);
    ASSERT_EQ(data.labels.size(), 150u);
    EXPECT_EQ(data.labelNames, (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
    EXPECT_EQ(data.labels[0], 0);
    EXPECT_EQ(data.labels[149], 2);
    EXPECT_EQ(data.exact[0], 5.1);
    EXPECT_EQ(data.exact[3], 0.2);
    EXPECT_FLOAT_EQ(data.at(0, 1), 3.5f);
    EXPECT_EQ(data.provenance.format, "csv");
}

TEST(TextReader, ReadsWineAndBreastCancerShapes) {
    Dataset wine = readDataset(dataPath("tables/wine.csv"));
    EXPECT_EQ(wine.n, 178u);
    EXPECT_EQ(wine.d, 13u);
    EXPECT_EQ(wine.exact[12], 1065.0);
    EXPECT_EQ(wine.labels.back(), 2);
    Dataset cancer = readDataset(dataPath("tables/breast_cancer.csv"));
    EXPECT_EQ(cancer.n, 569u);
    EXPECT_EQ(cancer.d, 30u);
    EXPECT_EQ(cancer.exact[0], 17.99);
    EXPECT_EQ(cancer.labelNames, (std::vector<std::string>{"malignant", "benign"}));
}

TEST(TextReader, ReadsGzipDigitsWithLastColumnAsLabel) {
    ReadOptions options;
    options.labelColumn = "last";
    Dataset digits = readDataset(dataPath("tables/digits.csv.gz"), options);
    EXPECT_EQ(digits.n, 1797u);
    EXPECT_EQ(digits.d, 64u);
    EXPECT_EQ(digits.labels[0], 0);
    EXPECT_EQ(digits.labels.back(), 8);
    EXPECT_EQ(digits.exact[2], 5.0);
    // Without the option every column is a feature: the file has no header to say otherwise.
    EXPECT_EQ(readDataset(dataPath("tables/digits.csv.gz")).d, 65u);
}

struct BenchmarkShape {
    const char* file;
    std::size_t n, d;
};

TEST(TextReader, ReadsEveryBenchmarkSetWithItsLabels) {
    const BenchmarkShape shapes[] = {{"sipu/aggregation", 788, 2},
                                     {"sipu/r15", 600, 2},
                                     {"sipu/d31", 3100, 2},
                                     {"sipu/s3", 5000, 2},
                                     {"sipu/flame", 240, 2},
                                     {"sipu/jain", 373, 2},
                                     {"sipu/spiral", 312, 2},
                                     {"sipu/pathbased", 300, 2},
                                     {"sipu/compound", 399, 2},
                                     {"sipu/unbalance", 6500, 2},
                                     {"sipu/a1", 3000, 2},
                                     {"sipu/birch1", 100000, 2},
                                     {"other/chameleon_t4_8k", 8000, 2},
                                     {"other/chameleon_t7_10k", 10000, 2},
                                     {"fcps/hepta", 212, 3},
                                     {"fcps/tetra", 400, 3},
                                     {"fcps/lsun", 400, 2},
                                     {"fcps/target", 770, 2},
                                     {"fcps/twodiamonds", 800, 2},
                                     {"fcps/wingnut", 1016, 2},
                                     {"fcps/engytime", 4096, 2},
                                     {"fcps/atom", 800, 3},
                                     {"fcps/chainlink", 1000, 3},
                                     {"uci/wine", 178, 13},
                                     {"uci/yeast", 1484, 8},
                                     {"uci/ecoli", 336, 7},
                                     {"uci/glass", 214, 9},
                                     {"uci/wdbc", 569, 30}};
    for (const BenchmarkShape& s : shapes) {
        SCOPED_TRACE(s.file);
        Dataset data = readDataset(dataPath(std::string("benchmarks/") + s.file + ".data.gz"));
        EXPECT_EQ(data.n, s.n);
        EXPECT_EQ(data.d, s.d);
        EXPECT_EQ(data.labels.size(), s.n);
        EXPECT_THAT(data.labelSource, HasSubstr("labels0"));
    }
}

TEST(TextReader, SpotValuesOfBenchmarkFiles) {
    Dataset a1 = readDataset(dataPath("benchmarks/sipu/a1.data.gz"));
    EXPECT_EQ(a1.exact[0], 54620.0);
    EXPECT_EQ(a1.exact[1], 43523.0);
    EXPECT_EQ(a1.labels[0], 1);
    Dataset birch = readDataset(dataPath("benchmarks/sipu/birch1.data.gz"));
    EXPECT_EQ(birch.exact[2 * 99999], 288587.0);
    EXPECT_EQ(birch.exact[2 * 99999 + 1], 866362.0);
    Dataset hepta = readDataset(dataPath("benchmarks/fcps/hepta.data.gz"));
    EXPECT_DOUBLE_EQ(hepta.exact[0], -6.3274e-2);
    EXPECT_DOUBLE_EQ(hepta.exact[2], 2.2683e-2);
}

TEST(TextReader, HeaderQuotedNamesAndLabelColumnByName) {
    TempDir dir;
    const std::string path = dir.file("cells.csv");
    writeFile(path, "\"CD3, T cells\",CD19,type\r\n1.5,2,T\r\n3,4.25,B\r\n\r\n5,6,T\r\n");
    ReadOptions options;
    options.labelColumn = "type";
    Dataset data = readDataset(path, options);
    EXPECT_EQ(data.n, 3u);
    EXPECT_EQ(data.d, 2u);
    EXPECT_EQ(data.features, (std::vector<std::string>{"CD3, T cells", "CD19"}));
    EXPECT_EQ(data.labels, (std::vector<std::int32_t>{0, 1, 0}));
    EXPECT_EQ(data.labelNames, (std::vector<std::string>{"T", "B"}));
    EXPECT_EQ(data.exact[3], 4.25);
}

TEST(TextReader, TabAndWhitespaceSeparated) {
    TempDir dir;
    writeFile(dir.file("a.tsv"), "x\ty\n1\t2\n3\t4\n");
    EXPECT_EQ(readDataset(dir.file("a.tsv")).features, (std::vector<std::string>{"x", "y"}));
    writeFile(dir.file("b.txt"), "  1   2 3\n4\t5   6  \n");
    Dataset b = readDataset(dir.file("b.txt"));
    EXPECT_EQ(b.n, 2u);
    EXPECT_EQ(b.d, 3u);
    EXPECT_EQ(b.features[2], "V3");
    EXPECT_EQ(b.exact[5], 6.0);
}

TEST(TextReader, RejectsMalformedInputNamingFileAndPosition) {
    TempDir dir;
    writeFile(dir.file("empty.csv"), "");
    EXPECT_THAT(errorOf(dir.file("empty.csv")), HasSubstr("empty"));
    writeFile(dir.file("header_only.csv"), "a,b\n");
    EXPECT_THAT(errorOf(dir.file("header_only.csv")), HasSubstr("no data rows"));
    writeFile(dir.file("ragged.csv"), "a,b\n1,2\n3\n");
    EXPECT_THAT(errorOf(dir.file("ragged.csv")),
                AllOf(HasSubstr("ragged.csv"), HasSubstr("line 3"), HasSubstr("expected 2 fields")));
    writeFile(dir.file("text.csv"), "a,b\n1,2\n3,abc\n");
    EXPECT_THAT(errorOf(dir.file("text.csv")),
                AllOf(HasSubstr("line 3"), HasSubstr("column 'b'"), HasSubstr("'abc' is not a number")));
    writeFile(dir.file("nan.csv"), "a,b\n1,NaN\n");
    EXPECT_THAT(errorOf(dir.file("nan.csv")), AllOf(HasSubstr("row 1"), HasSubstr("NaN or infinite")));
    writeFile(dir.file("inf.csv"), "a,b\n1,1e999\n");
    EXPECT_THAT(errorOf(dir.file("inf.csv")), HasSubstr("NaN or infinite"));
    writeFile(dir.file("nolabel.csv"), "a,b\n1,2\n");
    ReadOptions options;
    options.labelColumn = "class";
    EXPECT_THAT(errorOf(dir.file("nolabel.csv"), options), HasSubstr("label column 'class' not found"));
    writeFile(dir.file("only_label.csv"), "a\n1\n");
    options.labelColumn = "a";
    EXPECT_THAT(errorOf(dir.file("only_label.csv"), options), HasSubstr("no feature columns"));
    EXPECT_THAT(errorOf(dir.file("missing.csv")), HasSubstr("file not found"));
    writeFile(dir.file("data.xyz"), "1,2\n");
    EXPECT_THAT(errorOf(dir.file("data.xyz")), HasSubstr("unknown file type"));
}

TEST(TextReader, NonFiniteValuesAreCountedWhenAllowed) {
    TempDir dir;
    writeFile(dir.file("nan.csv"), "a,b\n1,NaN\ninf,2\n3,4\n");
    ReadOptions options;
    options.allowNonFinite = true;
    Dataset data = readDataset(dir.file("nan.csv"), options);
    EXPECT_EQ(data.nonFinite, 2u);
    ASSERT_EQ(data.warnings.size(), 1u);
    EXPECT_THAT(data.warnings[0], HasSubstr("2 values are NaN or infinite"));
}

TEST(TextReader, TruncatedGzipIsRefused) {
    TempDir dir;
    std::string gz = test::readFile(dataPath("benchmarks/sipu/a1.data.gz"));
    writeFile(dir.file("cut.data.gz"), gz.substr(0, gz.size() / 2));
    EXPECT_THAT(errorOf(dir.file("cut.data.gz")), AllOf(HasSubstr("cut.data.gz"), HasSubstr("gzip")));
}

TEST(TextReader, TextColumnsBecomePointNamesAndLabelsInsteadOfRefusingTheFile) {
    TempDir dir;
    writeFile(dir.file("cells.csv"), "cell,x,type,y\ncellA,1,T,2\ncellB,3,B,4.5\ncellC,5,T,6\n");
    const Dataset data = readDataset(dir.file("cells.csv"));
    EXPECT_EQ(data.features, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(data.exact, (std::vector<double>{1, 2, 3, 4.5, 5, 6}));
    EXPECT_EQ(data.pointNames, (std::vector<std::string>{"cellA", "cellB", "cellC"}));
    EXPECT_EQ(data.labels, (std::vector<std::int32_t>{0, 1, 0}));
    EXPECT_EQ(data.labelNames, (std::vector<std::string>{"T", "B"}));
    EXPECT_EQ(data.labelSource, "type");
    ASSERT_EQ(data.annotations.size(), 2u);
    EXPECT_EQ(data.annotations[0].name, "cell");
    EXPECT_EQ(data.annotations[0].role, Annotation::Role::PointNames);
    EXPECT_EQ(data.annotations[1].name, "type");
    EXPECT_EQ(data.annotations[1].role, Annotation::Role::Labels);
}

TEST(TextReader, LabelColumnOptionChoosesTheClassesAndOtherTextIsKept) {
    TempDir dir;
    writeFile(dir.file("cells.csv"), "sample,x,celltype\ns1,1,NK\ns1,2,B\ns2,3,NK\ns2,4,T\n");
    ReadOptions options;
    options.labelColumn = "celltype";
    const Dataset data = readDataset(dir.file("cells.csv"), options);
    EXPECT_EQ(data.features, (std::vector<std::string>{"x"}));
    EXPECT_EQ(data.labelNames, (std::vector<std::string>{"NK", "B", "T"}));
    EXPECT_EQ(data.labels, (std::vector<std::int32_t>{0, 1, 0, 2}));
    EXPECT_TRUE(data.pointNames.empty());
    ASSERT_EQ(data.annotations.size(), 2u);
    EXPECT_EQ(data.annotations[0].role, Annotation::Role::Text);
    EXPECT_EQ(data.annotations[0].values, (std::vector<std::string>{"s1", "s1", "s2", "s2"}));
    EXPECT_EQ(data.annotations[1].role, Annotation::Role::Labels);
}

TEST(TextReader, ATextColumnMayStartWithMissingCellsAndHoldNumberLikeIds) {
    TempDir dir;
    writeFile(dir.file("ids.csv"), "id,x\n,1\nNA,2\nA7,3\n123,4\n");
    const Dataset data = readDataset(dir.file("ids.csv"));
    EXPECT_EQ(data.features, (std::vector<std::string>{"x"}));
    EXPECT_EQ(data.pointNames, (std::vector<std::string>{"", "NA", "A7", "123"}));
    writeFile(dir.file("typo.csv"), "x,y\n1,2\n3,abc\n");
    EXPECT_THAT(errorOf(dir.file("typo.csv")),
                AllOf(HasSubstr("line 3"), HasSubstr("column 'y'"), HasSubstr("'abc' is not a number"),
                      HasSubstr("starts with numbers")));
    writeFile(dir.file("empty_cell.csv"), "x,y\n1,\n3,4\n");
    EXPECT_THAT(errorOf(dir.file("empty_cell.csv")), AllOf(HasSubstr("line 2"), HasSubstr("column 'y'")));
}

TEST(TextReader, ColumnsSelectOnlyNumericColumnsAndSubsampleKeepsAnnotationsAligned) {
    TempDir dir;
    writeFile(dir.file("cells.csv"), "cell,x,y,batch\nc0,0,10,b1\nc1,1,11,b1\nc2,2,12,b2\nc3,3,13,b2\nc4,4,14,b3\n");
    const Dataset data = readDataset(dir.file("cells.csv"));
    EXPECT_EQ(resolveColumns(data, {"y", "x"}), (std::vector<std::size_t>{1, 0}));
    try {
        resolveColumns(data, {"x", "cell"});
        ADD_FAILURE() << "a text column was selected";
    } catch (const InvalidInput& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("'cell' is a text column"), HasSubstr("numeric")));
    }
    const Dataset sample = subsample(data, 3, 7);
    ASSERT_EQ(sample.n, 3u);
    ASSERT_EQ(sample.annotations.size(), 2u);
    for (std::size_t k = 0; k < 3; ++k) {
        const auto i = static_cast<std::size_t>(sample.at(k, 0));
        EXPECT_EQ(sample.pointNames[k], "c" + std::to_string(i));
        EXPECT_EQ(sample.labelNames[static_cast<std::size_t>(sample.labels[k])], data.labelNames[data.labels[i]]);
    }
}
