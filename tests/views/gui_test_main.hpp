#pragma once
// main() for the GUI tests: the OpenGL format must be set before QApplication exists, which
// QTEST_MAIN does not allow; settings go to Qt's test locations, never the user's.
// In sanitizer builds LeakSanitizer checks before the QApplication goes (tests/sanitizers/leak_check.hpp).

#include <QApplication>
#include <QStandardPaths>
#include <QtTest>

#include "../sanitizers/leak_check.hpp"
#include "opengl_setup.hpp"

#define CLUSTERLENS_GUI_TEST_MAIN(TestClass)                                   \
    int main(int argc, char* argv[]) {                                         \
        clusterlens::views::setUpOpenGl(false);                                \
        QStandardPaths::setTestModeEnabled(true);                              \
        QApplication app(argc, argv);                                          \
        QApplication::setOrganizationName(QStringLiteral("ClusterLensTests")); \
        QApplication::setApplicationName(QStringLiteral(#TestClass));          \
        TestClass test;                                                        \
        const int failures = QTest::qExec(&test, argc, argv);                  \
        clusterlens::test::checkLeaksBeforeTeardown();                         \
        return failures;                                                       \
    }
