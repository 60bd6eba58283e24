#pragma once
// An OpenGL context on a GPU without any display: EGL on an EGL device (EGL_EXT_platform_device),
// surfaceless. Lets the gpu tests prove the CUDA–OpenGL interop path on a headless CUDA machine.

#include <memory>
#include <string>

namespace clusterlens::test {

class HeadlessGlContext {
public:
    /// A current desktop-GL context on the first EGL device whose vendor is NVIDIA, or nullptr with
    /// the reason (no libEGL, no device platform, no NVIDIA device, context creation failed).
    static std::unique_ptr<HeadlessGlContext> create(std::string* whyNot);
    ~HeadlessGlContext();
    HeadlessGlContext(const HeadlessGlContext&) = delete;
    HeadlessGlContext& operator=(const HeadlessGlContext&) = delete;

    /// Address of a GL entry point (eglGetProcAddress); nullptr when absent.
    void* proc(const char* name) const;
    const std::string& description() const { return m_description; }

private:
    HeadlessGlContext() = default;
    struct Egl;
    std::unique_ptr<Egl> m_egl;
    std::string m_description;
};

}  // namespace clusterlens::test
