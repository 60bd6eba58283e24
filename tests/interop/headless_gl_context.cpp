#include "headless_gl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>

#include <vector>

namespace clusterlens::test {

// libEGL is opened at run time so the test binary also starts (and skips) where no EGL is installed.
struct HeadlessGlContext::Egl {
    void* library = nullptr;
    PFNEGLGETPROCADDRESSPROC getProcAddress = nullptr;
    PFNEGLTERMINATEPROC terminate = nullptr;
    PFNEGLMAKECURRENTPROC makeCurrent = nullptr;
    PFNEGLDESTROYCONTEXTPROC destroyContext = nullptr;
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;

    template <class F>
    F get(const char* name) const {
        return reinterpret_cast<F>(getProcAddress(name));
    }
};

std::unique_ptr<HeadlessGlContext> HeadlessGlContext::create(std::string* whyNot) {
    auto fail = [whyNot](const std::string& reason) -> std::unique_ptr<HeadlessGlContext> {
        if (whyNot) *whyNot = reason;
        return nullptr;
    };
    std::unique_ptr<HeadlessGlContext> result(new HeadlessGlContext());
    result->m_egl = std::make_unique<Egl>();
    Egl& egl = *result->m_egl;
    egl.library = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!egl.library) return fail("libEGL.so.1 is not installed");
    egl.getProcAddress = reinterpret_cast<PFNEGLGETPROCADDRESSPROC>(dlsym(egl.library, "eglGetProcAddress"));
    if (!egl.getProcAddress) return fail("libEGL has no eglGetProcAddress");
    auto queryDevices = egl.get<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    auto queryDeviceString = egl.get<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    auto platformDisplay = egl.get<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    auto initialize = egl.get<PFNEGLINITIALIZEPROC>("eglInitialize");
    auto queryString = egl.get<PFNEGLQUERYSTRINGPROC>("eglQueryString");
    auto bindApi = egl.get<PFNEGLBINDAPIPROC>("eglBindAPI");
    auto chooseConfig = egl.get<PFNEGLCHOOSECONFIGPROC>("eglChooseConfig");
    auto createContext = egl.get<PFNEGLCREATECONTEXTPROC>("eglCreateContext");
    egl.terminate = egl.get<PFNEGLTERMINATEPROC>("eglTerminate");
    egl.makeCurrent = egl.get<PFNEGLMAKECURRENTPROC>("eglMakeCurrent");
    egl.destroyContext = egl.get<PFNEGLDESTROYCONTEXTPROC>("eglDestroyContext");
    if (!queryDevices || !platformDisplay || !initialize || !bindApi || !chooseConfig || !createContext ||
        !egl.makeCurrent)
        return fail("EGL lacks EGL_EXT_device_enumeration / EGL_EXT_platform_device");

    EGLint count = 0;
    std::vector<EGLDeviceEXT> devices(16);
    if (!queryDevices(static_cast<EGLint>(devices.size()), devices.data(), &count) || count == 0)
        return fail("EGL lists no devices (no GPU driver visible to EGL)");
    for (EGLint i = 0; i < count && egl.display == EGL_NO_DISPLAY; ++i) {
        EGLDisplay display = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (display == EGL_NO_DISPLAY) continue;
        EGLint major = 0, minor = 0;
        if (!initialize(display, &major, &minor)) continue;
        const char* vendor = queryString ? queryString(display, EGL_VENDOR) : nullptr;
        if (vendor && std::string(vendor).find("NVIDIA") != std::string::npos) {
            egl.display = display;
            result->m_description =
                std::string("EGL ") + std::to_string(major) + "." + std::to_string(minor) + " " + vendor;
            if (queryDeviceString) {
                const char* extensions = queryDeviceString(devices[i], EGL_EXTENSIONS);
                if (extensions && std::string(extensions).find("EGL_NV_device_cuda") != std::string::npos)
                    result->m_description += " (EGL_NV_device_cuda)";
            }
        } else if (egl.terminate) {
            egl.terminate(display);
        }
    }
    if (egl.display == EGL_NO_DISPLAY) return fail("no EGL device of an NVIDIA driver");

    const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                       EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!bindApi(EGL_OPENGL_API) || !chooseConfig(egl.display, configAttributes, &config, 1, &configs) || configs == 0)
        return fail("no desktop OpenGL config on the NVIDIA EGL device");
    const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_NONE};
    egl.context = createContext(egl.display, config, EGL_NO_CONTEXT, contextAttributes);
    if (egl.context == EGL_NO_CONTEXT) return fail("eglCreateContext (OpenGL 4.5) failed");
    // Surfaceless (EGL_KHR_surfaceless_context): the test renders only into buffer objects.
    if (!egl.makeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl.context))
        return fail("eglMakeCurrent without a surface failed");
    return result;
}

HeadlessGlContext::~HeadlessGlContext() {
    if (!m_egl) return;
    if (m_egl->display != EGL_NO_DISPLAY) {
        if (m_egl->makeCurrent) m_egl->makeCurrent(m_egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (m_egl->context != EGL_NO_CONTEXT && m_egl->destroyContext)
            m_egl->destroyContext(m_egl->display, m_egl->context);
        if (m_egl->terminate) m_egl->terminate(m_egl->display);
    }
    // The library stays loaded: NVIDIA's EGL registers exit handlers that outlive dlclose.
}

void* HeadlessGlContext::proc(const char* name) const {
    return reinterpret_cast<void*>(m_egl->getProcAddress(name));
}

}  // namespace clusterlens::test
