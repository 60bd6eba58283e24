#include "dataset_session.hpp"

#include <QFileInfo>

#include "clusterlens/session/session_data.hpp"

namespace clusterlens::views {

DatasetSession::DatasetSession(JobRunner* runner, QObject* parent) : QObject(parent), m_runner(runner) {}

void DatasetSession::open(const QString& path, const OpenChoice& choice, std::shared_ptr<const Dataset> inspected) {
    const std::string file = path.toStdString();
    startRead(
        path,
        [file, choice, inspected](JobControl& control) {
            return ProposedRead{
                inspected ? inspected : std::make_shared<const Dataset>(readChosen(file, choice.spec, &control)),
                choice};
        },
        transformOf(choice.spec), true);
}

void DatasetSession::openWithDefaults(const QString& path, std::optional<TransformChoice> transform) {
    const std::string file = path.toStdString();
    startRead(
        path, [file](JobControl& control) { return readWithDefaults(file, &control); }, std::move(transform), true);
}

void DatasetSession::openWith(const QString& path, std::function<Dataset(JobControl&)> read, const ReadOptions& options,
                              std::optional<TransformChoice> transform) {
    startRead(
        path,
        [read = std::move(read), options](JobControl& control) {
            ProposedRead out{std::make_shared<const Dataset>(read(control)), {}};
            out.choice.spec.compensate = options.compensate;
            out.choice.spec.h5Dataset = options.h5Dataset;
            out.choice.spec.embedding = options.embedding;
            out.choice.spec.labelColumn = options.labelColumn;
            return out;
        },
        std::move(transform), false);
}

void DatasetSession::startRead(const QString& path, std::function<ProposedRead(JobControl&)> read,
                               std::optional<TransformChoice> transform, bool fromFile) {
    m_loading = true;
    Q_EMIT loadStarted(path);
    m_runner->start<ProposedRead>(this, QStringLiteral("load"), tr("Read %1").arg(QFileInfo(path).fileName()),
                                  std::move(read),
                                  [this, path, transform, fromFile](const JobOutcome<ProposedRead>& outcome) {
                                      m_loading = false;
                                      if (outcome.state == JobState::Cancelled) {
                                          Q_EMIT loadCancelled(path);
                                          return;
                                      }
                                      if (outcome.state == JobState::Failed) {
                                          Q_EMIT loadFailed(path, outcome.message);
                                          return;
                                      }
                                      m_raw = outcome.result->data;
                                      m_path = path;
                                      m_choice = outcome.result->choice;
                                      m_options = readOptionsOf(m_choice.spec);
                                      m_fromFile = fromFile;
                                      if (fromFile) m_transform = transformOf(m_choice.spec);
                                      if (transform) m_transform = *transform;
                                      m_choice.spec.transform = m_transform.spec().toStdString();
                                      m_choice.spec.cofactors = m_transform.cofactors;
                                      Q_EMIT loaded(path);
                                      applyTransform(true);
                                  });
}

void DatasetSession::setTransform(const TransformChoice& choice) {
    if (choice == m_transform) return;
    m_transform = choice;
    m_choice.spec.transform = choice.spec().toStdString();
    m_choice.spec.cofactors = choice.cofactors;
    if (m_raw) applyTransform(false);
}

void DatasetSession::applyTransform(bool newRows) {
    if (m_transform.isNone()) {
        m_runner->cancelSlot(QStringLiteral("transform"));
        m_current = m_raw;
        Q_EMIT currentChanged(newRows);
        return;
    }
    const std::shared_ptr<const Dataset> raw = m_raw;
    DatasetReadSpec spec;
    spec.transform = m_transform.spec().toStdString();
    spec.cofactors = m_transform.cofactors;
    m_runner->start<Dataset>(
        this, QStringLiteral("transform"), tr("Transform: %1").arg(m_transform.label()),
        [raw, spec](JobControl& control) { return prepareData(*raw, spec, &control); },
        [this, raw, newRows](const JobOutcome<Dataset>& outcome) {
            if (outcome.state == JobState::Finished) {
                m_current = outcome.result;
                Q_EMIT currentChanged(newRows);
                return;
            }
            if (outcome.state == JobState::Failed) Q_EMIT transformFailed(outcome.message);
            // Without a transformed version a new file is still shown, untransformed.
            if (newRows || !m_current) {
                m_current = raw;
                Q_EMIT currentChanged(newRows);
            }
        });
}

}  // namespace clusterlens::views
