#pragma once
// main() for the GUI tests: the OpenGL format must be set before QApplication exists, which
// QTEST_MAIN does not allow; settings go to Qt's test locations, never the user's.

#include <QApplication>
#include <QStandardPaths>
#include <QtTest>

#include "opengl_setup.hpp"

#define CLUSTERLENS_GUI_TEST_MAIN(TestClass)                                   \
    int main(int argc, char* argv[]) {                                         \
        clusterlens::views::setUpOpenGl(false);                                \
        QStandardPaths::setTestModeEnabled(true);                              \
        QApplication app(argc, argv);                                          \
        QApplication::setOrganizationName(QStringLiteral("ClusterLensTests")); \
        QApplication::setApplicationName(QStringLiteral(#TestClass));          \
        TestClass test;                                                        \
        return QTest::qExec(&test, argc, argv);                                \
    }
