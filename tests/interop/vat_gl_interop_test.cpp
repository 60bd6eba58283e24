// Proves the CUDA–OpenGL interop path headlessly: the viewport kernel writes into a GL pixel buffer
// registered with CUDA, the buffer feeds a texture upload on the GPU, and the texture read back equals
// the host rendering. Skips where no NVIDIA EGL device exists (CI, Mesa machines).

#include <GL/gl.h>
#include <GL/glext.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/interop/vat_gl_interop.hpp"
#include "clusterlens/vat/vat.hpp"
#include "clusterlens/vat/vat_cuda.hpp"
#include "clusterlens/vat/viewport.hpp"
#include "headless_gl_context.hpp"

namespace clusterlens {
namespace {

// The GL entry points the test needs, resolved through EGL (GL 1.x ones typed by decltype: glext.h has
// no pointer types for them; decltype names the declaration without linking libGL).
struct Gl {
    PFNGLGENBUFFERSPROC genBuffers;
    PFNGLBINDBUFFERPROC bindBuffer;
    PFNGLBUFFERDATAPROC bufferData;
    PFNGLDELETEBUFFERSPROC deleteBuffers;
    decltype(&::glGenTextures) genTextures;
    decltype(&::glBindTexture) bindTexture;
    decltype(&::glTexImage2D) texImage2D;
    decltype(&::glTexSubImage2D) texSubImage2D;
    decltype(&::glGetTexImage) getTexImage;
    decltype(&::glPixelStorei) pixelStorei;
    decltype(&::glDeleteTextures) deleteTextures;
    decltype(&::glGetString) getString;
    decltype(&::glGetError) getError;
    decltype(&::glFinish) finish;

    explicit Gl(const test::HeadlessGlContext& c) {
        genBuffers = reinterpret_cast<PFNGLGENBUFFERSPROC>(c.proc("glGenBuffers"));
        bindBuffer = reinterpret_cast<PFNGLBINDBUFFERPROC>(c.proc("glBindBuffer"));
        bufferData = reinterpret_cast<PFNGLBUFFERDATAPROC>(c.proc("glBufferData"));
        deleteBuffers = reinterpret_cast<PFNGLDELETEBUFFERSPROC>(c.proc("glDeleteBuffers"));
        genTextures = reinterpret_cast<decltype(&::glGenTextures)>(c.proc("glGenTextures"));
        bindTexture = reinterpret_cast<decltype(&::glBindTexture)>(c.proc("glBindTexture"));
        texImage2D = reinterpret_cast<decltype(&::glTexImage2D)>(c.proc("glTexImage2D"));
        texSubImage2D = reinterpret_cast<decltype(&::glTexSubImage2D)>(c.proc("glTexSubImage2D"));
        getTexImage = reinterpret_cast<decltype(&::glGetTexImage)>(c.proc("glGetTexImage"));
        pixelStorei = reinterpret_cast<decltype(&::glPixelStorei)>(c.proc("glPixelStorei"));
        deleteTextures = reinterpret_cast<decltype(&::glDeleteTextures)>(c.proc("glDeleteTextures"));
        getString = reinterpret_cast<decltype(&::glGetString)>(c.proc("glGetString"));
        getError = reinterpret_cast<decltype(&::glGetError)>(c.proc("glGetError"));
        finish = reinterpret_cast<decltype(&::glFinish)>(c.proc("glFinish"));
    }
    bool complete() const {
        return genBuffers && bindBuffer && bufferData && deleteBuffers && genTextures && bindTexture && texImage2D &&
               texSubImage2D && getTexImage && pixelStorei && deleteTextures && getString && getError && finish;
    }
};

// Three separated Gaussian groups in 6-D with continuous coordinates (distinct distances).
std::vector<float> groups(std::size_t n, std::size_t d) {
    std::mt19937_64 rng(20261121);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<float> x(n * d);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < d; ++k) x[i * d + k] = noise(rng) + 8.0f * static_cast<float>((i % 3) == k % 3);
    return x;
}

class VatGlInterop : public ::testing::Test {
protected:
    void SetUp() override {
        std::string why;
        m_context = test::HeadlessGlContext::create(&why);
        if (!m_context) GTEST_SKIP() << "no headless NVIDIA OpenGL context: " << why;
        m_gl = std::make_unique<Gl>(*m_context);
        ASSERT_TRUE(m_gl->complete()) << "GL entry points missing on " << m_context->description();
        std::string reason;
        const bool usable = glInteropUsable(&reason);
        std::printf("[interop] %s | GL %s | %s | %s\n", m_context->description().c_str(),
                    reinterpret_cast<const char*>(m_gl->getString(GL_VERSION)),
                    reinterpret_cast<const char*>(m_gl->getString(GL_RENDERER)), reason.c_str());
        // An NVIDIA context on a CUDA machine must give interop: anything else is a failure, not a skip.
        ASSERT_TRUE(usable) << reason;
    }

    // Renders through the registered buffer into an R32F texture and reads the texture back.
    std::vector<float> renderThroughGl(VatDeviceRenderer& renderer, const VatViewport& viewport, double* ms) {
        const Gl& gl = *m_gl;
        const std::size_t pixels = static_cast<std::size_t>(viewport.width) * static_cast<std::size_t>(viewport.height);
        GLuint buffer = 0, texture = 0;
        gl.genBuffers(1, &buffer);
        gl.bindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
        gl.bufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(pixels * sizeof(float)), nullptr, GL_STREAM_DRAW);
        gl.bindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        gl.genTextures(1, &texture);
        gl.bindTexture(GL_TEXTURE_2D, texture);
        gl.texImage2D(GL_TEXTURE_2D, 0, GL_R32F, viewport.width, viewport.height, 0, GL_RED, GL_FLOAT, nullptr);
        std::vector<double> times;
        {
            VatGlBuffer registered(buffer, pixels * sizeof(float));
            for (int frame = 0; frame < 12; ++frame) {
                const auto t0 = std::chrono::steady_clock::now();
                registered.render(renderer, viewport);
                gl.bindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
                gl.pixelStorei(GL_UNPACK_ALIGNMENT, 4);
                gl.texSubImage2D(GL_TEXTURE_2D, 0, 0, 0, viewport.width, viewport.height, GL_RED, GL_FLOAT, nullptr);
                gl.bindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
                gl.finish();
                times.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            }
        }
        std::vector<float> back(pixels, -1.0f);
        gl.pixelStorei(GL_PACK_ALIGNMENT, 4);
        gl.getTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, back.data());
        EXPECT_EQ(gl.getError(), static_cast<GLenum>(GL_NO_ERROR));
        gl.deleteTextures(1, &texture);
        gl.deleteBuffers(1, &buffer);
        std::sort(times.begin() + 2, times.end());  // the first two frames warm up
        *ms = times[2 + (times.size() - 2) / 2];
        return back;
    }

    std::unique_ptr<test::HeadlessGlContext> m_context;
    std::unique_ptr<Gl> m_gl;
};

TEST_F(VatGlInterop, TextureEqualsHostRenderingForVatAndIvat) {
    const std::size_t n = 3000, d = 6;
    const std::vector<float> x = groups(n, d);
    VatOptions options;
    options.backend = Backend::Cuda;
    const VatResult vat = computeVat(x.data(), n, d, options);
    const VatRenderSource source = makeVatRenderSource(vat, x.data(), d);
    VatDeviceRenderer renderer(source);

    struct Case {
        VatViewport viewport;
        const char* name;
    };
    std::vector<Case> cases;
    for (VatImageKind kind : {VatImageKind::Vat, VatImageKind::Ivat}) {
        const char* label = kind == VatImageKind::Vat ? "vat" : "ivat";
        cases.push_back({{0.0, double(n), 0.0, double(n), 1024, 1024, kind, VatPixelMode::Representative}, label});
        cases.push_back({{150.5, 910.25, 1200.0, 1300.0, 640, 360, kind, VatPixelMode::Representative}, label});
    }
    cases.push_back(
        {{0.0, double(n), 0.0, double(n), 512, 512, VatImageKind::Vat, VatPixelMode::BlockMean}, "vat-mean"});

    for (const Case& c : cases) {
        const VatViewport& v = c.viewport;
        const std::size_t pixels = static_cast<std::size_t>(v.width) * static_cast<std::size_t>(v.height);
        double ms = 0.0;
        const std::vector<float> viaGl = renderThroughGl(renderer, v, &ms);
        std::vector<float> viaHost(pixels), viaCpu(pixels);
        renderer.renderToHost(v, viaHost.data());
        renderVatViewportCpu(source, v, viaCpu.data());
        EXPECT_EQ(0, std::memcmp(viaGl.data(), viaHost.data(), pixels * sizeof(float)))
            << c.name << " " << v.width << "x" << v.height << ": the texture differs from the same kernel's host copy";
        std::size_t off = 0;
        for (std::size_t p = 0; p < pixels; ++p)
            if (std::fabs(viaGl[p] - viaCpu[p]) > 1e-5f * std::max(1.0f, std::fabs(viaCpu[p]))) ++off;
        EXPECT_EQ(off, 0u) << c.name << ": pixels differing from the CPU renderer";
        std::printf("[interop] %s %dx%d: map+kernel+unmap+texture upload median %.3f ms\n", c.name, v.width, v.height,
                    ms);
    }
}

}  // namespace
}  // namespace clusterlens
