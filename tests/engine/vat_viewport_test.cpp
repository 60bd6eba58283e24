// VAT/iVAT viewport rendering against per-pixel recomputation from the definitions in viewport.hpp,
// contrast percentiles, colour tables and the PNG writer.

#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/write_png.hpp"
#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

struct Fixture {
    std::size_t n = 0, d = 0;
    std::vector<float> x;
    VatResult vat;
};

Fixture makeFixture(std::size_t n, std::size_t d, Metric metric, std::uint64_t seed) {
    Fixture f;
    f.n = n;
    f.d = d;
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    f.x.resize(n * d);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j) f.x[i * d + j] = noise(rng) + static_cast<float>((i % 3) * 4);
    VatOptions options;
    options.metric = metric;
    options.backend = Backend::Cpu;
    f.vat = computeVat(f.x.data(), n, d, options);
    return f;
}

// Pixel value straight from the header's rules: representatives or the block mean of metricDistance,
// and RangeMaxTable::ivat for iVAT.
float expectedPixel(const Fixture& f, const RangeMaxTable& table, const VatViewport& v, int px, int py) {
    const auto point = [&](std::size_t position) {
        return &f.x[static_cast<std::size_t>(f.vat.order[position]) * f.d];
    };
    if (v.kind == VatImageKind::Ivat) {
        const std::size_t r = viewportPosition(v.row0, v.row1, v.height, py, 0, 1, f.n);
        const std::size_t c = viewportPosition(v.col0, v.col1, v.width, px, 0, 1, f.n);
        return static_cast<float>(table.ivat(r, c));
    }
    const bool mean = v.mode == VatPixelMode::BlockMean;
    const int mr = mean ? viewportSampleCount((v.row1 - v.row0) / v.height) : 1;
    const int mc = mean ? viewportSampleCount((v.col1 - v.col0) / v.width) : 1;
    double sum = 0.0;
    for (int s = 0; s < mr; ++s)
        for (int t = 0; t < mc; ++t) {
            const std::size_t r = viewportPosition(v.row0, v.row1, v.height, py, s, mr, f.n);
            const std::size_t c = viewportPosition(v.col0, v.col1, v.width, px, t, mc, f.n);
            sum += metricDistance(point(r), point(c), f.d, f.vat.metric);
        }
    return static_cast<float>(sum / (static_cast<double>(mr) * mc));
}

void expectImage(const Fixture& f, const VatRenderSource& source, const VatViewport& v, const char* what) {
    std::vector<float> image(static_cast<std::size_t>(v.width) * v.height, -1.0f);
    renderVatViewportCpu(source, v, image.data());
    for (int py = 0; py < v.height; ++py)
        for (int px = 0; px < v.width; ++px)
            ASSERT_EQ(image[static_cast<std::size_t>(py) * v.width + px], expectedPixel(f, source.ivat, v, px, py))
                << what << " pixel (" << px << ", " << py << ") of " << v.width << "x" << v.height << " rows ["
                << v.row0 << ", " << v.row1 << ") cols [" << v.col0 << ", " << v.col1 << ")";
}

std::vector<VatViewport> viewports(std::size_t n, std::uint64_t seed) {
    const double all = static_cast<double>(n);
    std::vector<VatViewport> list = {
        {0.0, all, 0.0, all, 64, 64, VatImageKind::Vat, VatPixelMode::Representative},    // whole, zoomed out
        {0.0, all, 0.0, all, 700, 700, VatImageKind::Vat, VatPixelMode::Representative},  // more pixels than points
        {3.25, 40.5, 100.0, 333.75, 37, 53, VatImageKind::Vat, VatPixelMode::Representative},  // off-diagonal
        {0.0, all, 0.0, all, 33, 31, VatImageKind::Vat, VatPixelMode::Representative},         // not square
    };
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> at(0.0, all);
    std::uniform_int_distribution<int> side(1, 90);
    for (int k = 0; k < 6; ++k) {
        double a = at(rng), b = at(rng), c = at(rng), e = at(rng);
        if (a > b) std::swap(a, b);
        if (c > e) std::swap(c, e);
        list.push_back({a, b + 0.5, c, e + 0.5, side(rng), side(rng), VatImageKind::Vat, VatPixelMode::Representative});
    }
    return list;
}

}  // namespace

TEST(VatViewport, PixelsEqualTheDistanceOfTheRepresentativesOrTheirBlockMean) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    for (Metric metric : {Metric::Euclidean, Metric::SqEuclidean, Metric::Manhattan, Metric::Cosine}) {
        const Fixture f = makeFixture(500, 6, metric, seed);
        const VatRenderSource source = makeVatRenderSource(f.vat, f.x.data(), f.d);
        ASSERT_EQ(source.ordered.size(), f.n * f.d);
        for (VatViewport v : viewports(f.n, seed)) {
            if (v.row1 > 500.0) v.row1 = 500.0;
            if (v.col1 > 500.0) v.col1 = 500.0;
            for (VatPixelMode mode : {VatPixelMode::Representative, VatPixelMode::BlockMean}) {
                v.mode = mode;
                v.kind = VatImageKind::Vat;
                expectImage(f, source, v, metricName(metric));
            }
            v.kind = VatImageKind::Ivat;
            expectImage(f, source, v, "ivat");
        }
    }
}

TEST(VatViewport, ASourceInAnotherOrderDrawsTheSameMatrixPermuted) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const Fixture f = makeFixture(120, 4, Metric::Euclidean, seed);
    const VatRenderSource inVat = makeVatRenderSource(f.vat, f.x.data(), f.d);
    std::vector<std::int64_t> vatPosition(f.n);
    for (std::size_t k = 0; k < f.n; ++k)
        vatPosition[static_cast<std::size_t>(f.vat.order[k])] = static_cast<std::int64_t>(k);
    std::vector<std::int64_t> shuffled(f.vat.order);
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(seed));
    const auto render = [&](const VatRenderSource& source, VatImageKind kind) {
        const VatViewport whole{0.0, 120.0, 0.0, 120.0, 120, 120, kind, VatPixelMode::Representative};
        std::vector<float> out(120 * 120);
        renderVatViewportCpu(source, whole, out.data());
        return out;
    };
    for (VatImageKind kind : {VatImageKind::Vat, VatImageKind::Ivat}) {
        // In the VAT's own order the image is the same, pixel for pixel.
        EXPECT_EQ(render(makeVatRenderSourceInOrder(f.vat, f.x.data(), f.d, f.vat.order), kind), render(inVat, kind));
        // In a shuffled order, pixel (r, c) is the VAT image's pixel of the same two points.
        const std::vector<float> vatImage = render(inVat, kind);
        const std::vector<float> image = render(makeVatRenderSourceInOrder(f.vat, f.x.data(), f.d, shuffled), kind);
        for (std::size_t r = 0; r < f.n; ++r)
            for (std::size_t c = 0; c < f.n; ++c)
                ASSERT_EQ(image[r * f.n + c],
                          vatImage[static_cast<std::size_t>(vatPosition[static_cast<std::size_t>(shuffled[r])]) * f.n +
                                   static_cast<std::size_t>(vatPosition[static_cast<std::size_t>(shuffled[c])])])
                    << "pixel " << r << "," << c;
    }
    std::vector<std::int64_t> repeated(f.vat.order);
    repeated[5] = repeated[6];
    EXPECT_THROW(makeVatRenderSourceInOrder(f.vat, f.x.data(), f.d, repeated), InvalidInput);
    EXPECT_THROW(makeVatRenderSourceInOrder(f.vat, f.x.data(), f.d, {0, 1}), InvalidInput);
}

TEST(VatViewport, MatrixRendererEqualsThePointsRenderer) {
    const std::uint64_t seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    const Fixture f = makeFixture(300, 4, Metric::Manhattan, seed);
    std::vector<double> matrix(f.n * f.n);
    for (std::size_t i = 0; i < f.n; ++i)
        for (std::size_t j = 0; j < f.n; ++j)
            matrix[i * f.n + j] = i == j ? 0.0 : metricDistance(&f.x[i * f.d], &f.x[j * f.d], f.d, f.vat.metric);
    const VatRenderSource source = makeVatRenderSource(f.vat, f.x.data(), f.d);
    for (VatViewport v : viewports(f.n, seed)) {
        v.row1 = std::min(v.row1, 300.0);
        v.col1 = std::min(v.col1, 300.0);
        for (VatImageKind kind : {VatImageKind::Vat, VatImageKind::Ivat})
            for (VatPixelMode mode : {VatPixelMode::Representative, VatPixelMode::BlockMean}) {
                v.kind = kind;
                v.mode = mode;
                const std::size_t count = static_cast<std::size_t>(v.width) * v.height;
                std::vector<float> fromPoints(count), fromMatrix(count);
                renderVatViewportCpu(source, v, fromPoints.data());
                renderVatViewportFromDistances(matrix.data(), f.vat, v, fromMatrix.data());
                ASSERT_EQ(fromPoints, fromMatrix) << v.width << "x" << v.height;
            }
    }
}

TEST(VatViewport, ValidationNamesTheField) {
    VatViewport v{0.0, 10.0, 0.0, 10.0, 10, 10, VatImageKind::Vat, VatPixelMode::Representative};
    EXPECT_NO_THROW(validateViewport(v, 10));
    const auto message = [](const VatViewport& bad, std::size_t n) -> std::string {
        try {
            validateViewport(bad, n);
        } catch (const InvalidInput& e) {
            return e.what();
        }
        return "";
    };
    VatViewport bad = v;
    bad.width = 0;
    EXPECT_NE(message(bad, 10).find("width"), std::string::npos);
    bad = v;
    bad.height = 20000;
    EXPECT_NE(message(bad, 10).find("height"), std::string::npos);
    bad = v;
    bad.row1 = 11.0;
    EXPECT_NE(message(bad, 10).find("row1"), std::string::npos);
    bad = v;
    bad.col0 = -1.0;
    EXPECT_NE(message(bad, 10).find("col0"), std::string::npos);
    bad = v;
    bad.col0 = 5.0;
    bad.col1 = 5.0;
    EXPECT_NE(message(bad, 10).find("col0"), std::string::npos);
    bad = v;
    bad.row0 = NAN;
    EXPECT_NE(message(bad, 10).find("row0"), std::string::npos);
    EXPECT_THROW(validateViewport(v, 0), InvalidInput);
}

TEST(VatViewport, PositionRuleIsTheFlooredBlockCentreClamped) {
    EXPECT_EQ(viewportPosition(0.0, 10.0, 5, 0, 0, 1, 10), 1u);     // centre 1.0
    EXPECT_EQ(viewportPosition(0.0, 10.0, 5, 4, 0, 1, 10), 9u);     // centre 9.0
    EXPECT_EQ(viewportPosition(0.0, 3.0, 10, 0, 0, 1, 3), 0u);      // zoomed in: centre 0.15
    EXPECT_EQ(viewportPosition(0.0, 3.0, 10, 9, 0, 1, 3), 2u);      // centre 2.85
    EXPECT_EQ(viewportPosition(0.0, 100.0, 1, 0, 0, 4, 100), 12u);  // samples at 12.5, 37.5, 62.5, 87.5
    EXPECT_EQ(viewportPosition(0.0, 100.0, 1, 0, 3, 4, 100), 87u);
    EXPECT_EQ(viewportSampleCount(0.3), 1);
    EXPECT_EQ(viewportSampleCount(2.7), 2);
    EXPECT_EQ(viewportSampleCount(500.0), 4);
}

TEST(ImagePercentiles, InterpolatesBetweenRanksAndIgnoresNonFiniteValues) {
    std::vector<float> pixels = {NAN, 4.0f, 1.0f, INFINITY, 3.0f, 2.0f, 0.0f};  // finite: 0..4
    const auto [lo, hi] = imagePercentiles(pixels.data(), pixels.size(), 10.0, 100.0);
    EXPECT_FLOAT_EQ(lo, 0.4f);
    EXPECT_FLOAT_EQ(hi, 4.0f);
    const auto [mid, mid2] = imagePercentiles(pixels.data(), pixels.size(), 50.0, 50.0);
    EXPECT_EQ(mid, 2.0f);
    EXPECT_EQ(mid2, 2.0f);
    EXPECT_THROW(imagePercentiles(pixels.data(), pixels.size(), 60.0, 50.0), InvalidInput);
    EXPECT_THROW(imagePercentiles(pixels.data(), pixels.size(), -1.0, 50.0), InvalidInput);
    const float none[] = {NAN};
    EXPECT_EQ(imagePercentiles(none, 1, 1.0, 99.0), (std::pair<float, float>{0.0f, 0.0f}));

    const std::uint64_t seed = test::testSeed();
    std::mt19937_64 rng(seed);
    std::exponential_distribution<float> value(1.0f);
    std::vector<float> many(10001);
    for (float& v : many) v = value(rng);
    std::vector<float> sorted = many;
    std::sort(sorted.begin(), sorted.end());
    const auto [p1, p99] = imagePercentiles(many.data(), many.size(), 1.0, 99.0);
    EXPECT_EQ(p1, sorted[100]);  // rank 0.01 · 10000 = 100 exactly
    EXPECT_EQ(p99, sorted[9900]);
}

TEST(Colormap, TablesRunFromTheDarkEndAndReverse) {
    for (Colormap c : {Colormap::Grey, Colormap::Viridis, Colormap::Magma})
        EXPECT_EQ(parseColormap(colormapName(c)), c);
    EXPECT_EQ(parseColormap("gray"), Colormap::Grey);
    EXPECT_THROW(parseColormap("jet"), InvalidInput);
    const std::vector<std::uint8_t> grey = colormapTable(Colormap::Grey, false);
    ASSERT_EQ(grey.size(), 256u * 3);
    for (int i = 0; i < 256; ++i) EXPECT_EQ(grey[static_cast<std::size_t>(i) * 3 + 1], i);
    const std::vector<std::uint8_t> viridis = colormapTable(Colormap::Viridis, false, 9);
    EXPECT_EQ((std::vector<std::uint8_t>(viridis.begin(), viridis.begin() + 3)),
              (std::vector<std::uint8_t>{68, 1, 84}));
    EXPECT_EQ((std::vector<std::uint8_t>(viridis.end() - 3, viridis.end())), (std::vector<std::uint8_t>{253, 231, 37}));
    const std::vector<std::uint8_t> magma = colormapTable(Colormap::Magma, false);
    const std::vector<std::uint8_t> reversed = colormapTable(Colormap::Magma, true);
    for (std::size_t i = 0; i < 256; ++i)
        for (std::size_t ch = 0; ch < 3; ++ch) EXPECT_EQ(reversed[i * 3 + ch], magma[(255 - i) * 3 + ch]);
    // Perceptual maps brighten monotonically: the sum of channels grows along viridis.
    const std::vector<std::uint8_t> v256 = colormapTable(Colormap::Viridis, false);
    EXPECT_LT(v256[0] + v256[1] + v256[2], v256[765] + v256[766] + v256[767]);
    EXPECT_THROW(colormapTable(Colormap::Grey, false, 1), InvalidInput);
}

TEST(Colormap, ContrastClipsNormalisesAndAppliesGamma) {
    const Contrast linear{1.0f, 3.0f, 1.0};
    EXPECT_EQ(colormapIndex(0.0f, linear, 256), 0);
    EXPECT_EQ(colormapIndex(1.0f, linear, 256), 0);
    EXPECT_EQ(colormapIndex(2.0f, linear, 256), 128);  // round(0.5 · 255)
    EXPECT_EQ(colormapIndex(9.0f, linear, 256), 255);
    EXPECT_EQ(colormapIndex(NAN, linear, 256), 0);
    const Contrast gamma{0.0f, 1.0f, 0.5};
    EXPECT_EQ(colormapIndex(0.25f, gamma, 256), 128);  // sqrt(0.25) = 0.5
    const Contrast flat{2.0f, 2.0f, 1.0};
    EXPECT_EQ(colormapIndex(2.0f, flat, 256), 0);
    EXPECT_EQ(colormapIndex(2.5f, flat, 256), 255);
    const std::vector<std::uint8_t> table = colormapTable(Colormap::Grey, false);
    const float pixels[] = {1.0f, 2.0f, 3.0f};
    EXPECT_EQ(colorizeImage(pixels, 3, linear, table),
              (std::vector<std::uint8_t>{0, 0, 0, 128, 128, 128, 255, 255, 255}));
    EXPECT_THROW(colorizeImage(pixels, 3, Contrast{0.0f, 1.0f, 0.0}, table), InvalidInput);
}

TEST(WritePng, WritesSignatureHeaderAndTheCompressedRows) {
    test::TempDir dir;
    const int width = 5, height = 3;
    std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
    for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>(i * 7);
    const std::string path = dir.file("x.png");
    writePngRgb(path, rgb.data(), width, height);
    const std::string bytes = test::readFile(path);
    ASSERT_GT(bytes.size(), 8u + 25 + 12 + 12);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    const auto u32 = [&](std::size_t at) {
        return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) << 24 |
               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 16 |
               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 8 |
               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3]));
    };
    EXPECT_EQ(u32(8), 13u);
    EXPECT_EQ(bytes.substr(12, 4), "IHDR");
    EXPECT_EQ(u32(16), static_cast<std::uint32_t>(width));
    EXPECT_EQ(u32(20), static_cast<std::uint32_t>(height));
    EXPECT_EQ(bytes[24], 8);  // bit depth
    EXPECT_EQ(bytes[25], 2);  // truecolour
    EXPECT_EQ(u32(29), static_cast<std::uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(bytes.data() + 12), 17)));
    EXPECT_EQ(bytes.substr(37, 4), "IDAT");
    const std::size_t idatSize = u32(33);
    std::vector<std::uint8_t> raw(static_cast<std::size_t>(height) * (width * 3 + 1));
    uLongf rawSize = raw.size();
    ASSERT_EQ(uncompress(raw.data(), &rawSize, reinterpret_cast<const Bytef*>(bytes.data() + 41), idatSize), Z_OK);
    ASSERT_EQ(rawSize, raw.size());
    for (int y = 0; y < height; ++y) {
        EXPECT_EQ(raw[static_cast<std::size_t>(y) * (width * 3 + 1)], 0);
        for (int i = 0; i < width * 3; ++i)
            EXPECT_EQ(raw[static_cast<std::size_t>(y) * (width * 3 + 1) + 1 + i],
                      rgb[static_cast<std::size_t>(y) * width * 3 + i]);
    }
    EXPECT_EQ(bytes.substr(bytes.size() - 8, 4), "IEND");
    try {
        writePngRgb(dir.file("missing/dir/x.png"), rgb.data(), width, height);
        FAIL() << "writing into a missing folder succeeded";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("x.png"), std::string::npos) << e.what();
    }
}
