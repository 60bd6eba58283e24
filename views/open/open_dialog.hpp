#pragma once
// The Open dialog for one data file (File > Open, drag and drop): the file is read as a job, then the
// dialog shows the defaults proposed for it (or the options last used for it): reader options, the
// channels analyses use (time-like channels off), and the transform (the one transform editor,
// TransformTable). Accepting gives an OpenChoice and, when the choice reads the file as it was read
// here, the data itself so that it is not read twice.

#include <QDialog>
#include <QString>

#include <memory>
#include <optional>

#include "clusterlens/dataset.hpp"
#include "open/open_choice.hpp"

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace clusterlens::views {

class JobRunner;
class ReadOptionsForm;
class TransformTable;

class OpenDialog : public QDialog {
    Q_OBJECT
public:
    /// Starts reading `path`; `remembered` (the options last used for this file) replaces the defaults.
    OpenDialog(JobRunner* runner, const QString& path, std::optional<OpenChoice> remembered = std::nullopt,
               QWidget* parent = nullptr);
    ~OpenDialog() override;

    const QString& path() const { return m_path; }
    /// True once the file was read and its options are shown.
    bool isReady() const { return m_raw != nullptr; }
    /// What the user chose (valid once ready).
    OpenChoice choice() const;
    /// The file as read here, when choice() reads it the same way; else null.
    std::shared_ptr<const Dataset> reusableData() const;

    ReadOptionsForm* readOptions() const { return m_form; }
    TransformTable* transformTable() const { return m_transform; }
    QListWidget* channels() const { return m_channels; }
    /// The line saying why these defaults (or what went wrong reading the file).
    QLabel* summary() const { return m_summary; }

Q_SIGNALS:
    void inspected();
    void inspectionFailed(const QString& message);

private:
    void inspect();
    void showInspected(std::shared_ptr<const Dataset> raw, const OpenChoice& choice);
    QWidget* buildChannelBox();

    JobRunner* m_runner;
    QString m_path;
    std::optional<OpenChoice> m_remembered;
    std::shared_ptr<const Dataset> m_raw;
    DatasetReadSpec m_inspectedRead;  ///< how m_raw was read
    OpenChoice m_proposed;
    ReadOptionsForm* m_form;
    TransformTable* m_transform;
    QListWidget* m_channels;
    QLabel* m_summary;
    QPushButton* m_readAgain;
    QDialogButtonBox* m_buttons;
};

}  // namespace clusterlens::views
