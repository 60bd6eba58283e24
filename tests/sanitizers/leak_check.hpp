#pragma once
// LeakSanitizer's check for the GUI tests, run while the QApplication still lives (sanitizer builds;
// nothing otherwise).
//
// At exit the check would run after QApplication has closed the X display, and with it Mesa has
// unloaded its DRI driver (swrast_dri.so): blocks the driver keeps in its own globals (set up once in a
// pthread_once) become unreachable and are reported from "<unknown module>", a frame no suppression
// can name. Checked after the tests and before the teardown, the driver still holds them, while a block
// that a test or the code under test lost is unreachable already and fails the run (LeakSanitizer exits
// with its error code). The check at exit then does not run again, so a leak inside the teardown of
// QApplication itself goes unseen.

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace clusterlens::test {

inline void checkLeaksBeforeTeardown() {
#if defined(__SANITIZE_ADDRESS__)
    __lsan_do_leak_check();
#endif
}

}  // namespace clusterlens::test
