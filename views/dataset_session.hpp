#pragma once
// The dataset the user works on: the file as read (raw) and the transformed version every view
// shows (current). Reading and transforming are jobs; a failed read leaves the previous dataset
// in place.

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

#include "clusterlens/dataset.hpp"
#include "clusterlens/io/read_options.hpp"
#include "jobs/job_runner.hpp"
#include "open/open_choice.hpp"
#include "open/transform_choice.hpp"

namespace clusterlens::views {

class DatasetSession : public QObject {
    Q_OBJECT
public:
    explicit DatasetSession(JobRunner* runner, QObject* parent = nullptr);

    /// Reads `path` as a job, as `choice` says (reader options, subsample, transform; its columns and
    /// scatter are for the views, see choice()). `inspected`, when given, is the file already read
    /// with the same reader options and subsample, and is used instead of reading it again. On success
    /// the raw dataset is replaced and the choice's transform applied; on failure loadFailed() carries
    /// the engine's message and nothing changes.
    void open(const QString& path, const OpenChoice& choice, std::shared_ptr<const Dataset> inspected = nullptr);
    /// Reads `path` as a job with the defaults proposed for it (proposeReadSpec: nothing is carried
    /// over from the file before); `transform`, when given, replaces the proposed transform.
    void openWithDefaults(const QString& path, std::optional<TransformChoice> transform = std::nullopt);
    /// Like open(), with `read` producing the dataset (a session's data, checked against its hash);
    /// on success `transform`, when given, replaces the current transform before it is applied.
    void openWith(const QString& path, std::function<Dataset(JobControl&)> read, const ReadOptions& options,
                  std::optional<TransformChoice> transform = std::nullopt);
    /// Applies `choice` to the raw dataset as a job (immediately for None).
    void setTransform(const TransformChoice& choice);

    const TransformChoice& transform() const { return m_transform; }
    std::shared_ptr<const Dataset> raw() const { return m_raw; }
    /// The transformed dataset the views show; null before the first successful load.
    std::shared_ptr<const Dataset> current() const { return m_current; }
    /// Path of the loaded dataset (empty before the first load).
    const QString& path() const { return m_path; }
    /// The reader options the loaded dataset was read with.
    const ReadOptions& readOptions() const { return m_options; }
    /// How the loaded data file was opened, its transform kept current; for a session's data only the
    /// reader options and transform are filled.
    const OpenChoice& choice() const { return m_choice; }
    /// True when the loaded data came from open() or openWithDefaults(), not from a session.
    bool openedFromFile() const { return m_fromFile; }
    bool isLoading() const { return m_loading; }

Q_SIGNALS:
    void loadStarted(const QString& path);
    /// A new file replaced the raw dataset (current() follows with currentChanged()).
    void loaded(const QString& path);
    void loadFailed(const QString& path, const QString& message);
    void loadCancelled(const QString& path);
    /// current() changed. `newRows` is true for a new file, false for a transform of the same rows.
    void currentChanged(bool newRows);
    void transformFailed(const QString& message);

private:
    void applyTransform(bool newRows);
    void startRead(const QString& path, std::function<ProposedRead(JobControl&)> read,
                   std::optional<TransformChoice> transform, bool fromFile);

    JobRunner* m_runner;
    std::shared_ptr<const Dataset> m_raw;
    std::shared_ptr<const Dataset> m_current;
    TransformChoice m_transform;
    QString m_path;
    ReadOptions m_options;
    OpenChoice m_choice;
    bool m_fromFile = false;
    bool m_loading = false;
};

}  // namespace clusterlens::views
