# Precompiled headers for the engine, the CLI, the Qt code and the tests. A Qt widget source spends
# about two thirds of its compile time parsing Qt's headers (4.7 of 7.2 s for
# views/dendrogram/dendrogram_widget.cpp in the sanitizer build), and a GoogleTest source about 8 s
# parsing gtest, gmock and the standard library.
# Only headers from outside the project are precompiled (but for the GUI tests, below), so a change to a
# project header rebuilds no other precompiled header. Every build (dev, asan, ci) uses them alike, so
# a source that forgets an include of its own fails nowhere or everywhere, not only on a user's machine.
option(CLUSTERLENS_PRECOMPILED_HEADERS "Precompile the standard, Qt and GoogleTest headers of the engine, CLI, views, GUI and tests" ON)

set(CLUSTERLENS_PCH_STD <algorithm> <cmath> <cstdint> <cstdio> <functional> <limits> <map> <memory>
    <numeric> <string> <utility> <vector>)
set(CLUSTERLENS_PCH_QT <QAction> <QApplication> <QCheckBox> <QComboBox> <QDockWidget> <QFileDialog>
    <QFileInfo> <QHBoxLayout> <QImage> <QLabel> <QLocale> <QMenu> <QMouseEvent> <QPainter> <QPushButton>
    <QSettings> <QSpinBox> <QString> <QVBoxLayout> <QWidget>)
set(CLUSTERLENS_PCH_GTEST <gtest/gtest.h> <gmock/gmock.h> <filesystem> <fstream> <random> <sstream>)
set(CLUSTERLENS_PCH_QTTEST <QFile> <QSignalSpy> <QTemporaryDir> <QTest>)
# The GUI tests' one precompiled header also holds the views headers most of them include (5 to 21
# tests each): their parsing was a quarter of a GUI test's compile. A change to one of these rebuilds
# the GUI tests' header, as it rebuilds the tests that include it anyway.
set(CLUSTERLENS_PCH_GUI_TEST_VIEWS analysis_session.hpp dataset_session.hpp palette.hpp jobs/job_runner.hpp
    scatter/scatter_widget.hpp dendrogram/dendrogram_layout.hpp dendrogram/dendrogram_panel.hpp
    dendrogram/dendrogram_widget.hpp dpc/dpc_panel.hpp vat/vat_panel.hpp vat/vat_widget.hpp)
list(TRANSFORM CLUSTERLENS_PCH_GUI_TEST_VIEWS PREPEND ${PROJECT_SOURCE_DIR}/views/)

# clusterlens_precompile_headers(target kind): kind is `std` (the engine; its CUDA sources skip it),
# `qt` (views, GUI, CLI with plots), `qttest` (GUI tests) or `gtest`.
function(clusterlens_precompile_headers target kind)
  if(NOT CLUSTERLENS_PRECOMPILED_HEADERS)
    return()
  endif()
  if(kind STREQUAL "std")
    target_precompile_headers(${target} PRIVATE ${CLUSTERLENS_PCH_STD})
  elseif(kind STREQUAL "qt")
    target_precompile_headers(${target} PRIVATE ${CLUSTERLENS_PCH_STD} ${CLUSTERLENS_PCH_QT})
  elseif(kind STREQUAL "qttest")
    target_precompile_headers(${target} PRIVATE ${CLUSTERLENS_PCH_STD} ${CLUSTERLENS_PCH_QT} ${CLUSTERLENS_PCH_QTTEST}
                              ${CLUSTERLENS_PCH_GUI_TEST_VIEWS})
  elseif(kind STREQUAL "gtest")
    target_precompile_headers(${target} PRIVATE ${CLUSTERLENS_PCH_STD} ${CLUSTERLENS_PCH_GTEST})
  else()
    message(FATAL_ERROR "clusterlens_precompile_headers: unknown kind '${kind}'")
  endif()
endfunction()
