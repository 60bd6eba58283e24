#include "dataset_session.hpp"

#include <QFileInfo>

#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"

namespace clusterlens::views {

QString TransformChoice::spec() const {
    switch (kind) {
        case Kind::None:
            return {};
        case Kind::Asinh:
            return QStringLiteral("asinh:%1").arg(cofactor, 0, 'g', 10);
        case Kind::ZScore:
            return QStringLiteral("zscore");
    }
    return {};
}

TransformChoice TransformChoice::fromSpec(const QString& spec) {
    TransformChoice choice;
    if (spec == QLatin1String("zscore")) {
        choice.kind = Kind::ZScore;
    } else if (spec.startsWith(QLatin1String("asinh"))) {
        bool ok = true;
        const double cofactor = spec.size() > 6 ? spec.mid(6).toDouble(&ok) : 5.0;
        if (ok && cofactor > 0.0) {
            choice.kind = Kind::Asinh;
            choice.cofactor = cofactor;
        }
    }
    return choice;
}

QString TransformChoice::label() const {
    switch (kind) {
        case Kind::None:
            return QStringLiteral("none");
        case Kind::Asinh:
            return QStringLiteral("arcsinh (cofactor %1)").arg(cofactor, 0, 'g', 10);
        case Kind::ZScore:
            return QStringLiteral("z-score");
    }
    return {};
}

DatasetSession::DatasetSession(JobRunner* runner, QObject* parent) : QObject(parent), m_runner(runner) {}

void DatasetSession::open(const QString& path, const ReadOptions& options) {
    const std::string file = path.toStdString();
    openWith(path, [file, options](JobControl&) { return readDataset(file, options); }, options);
}

void DatasetSession::openWith(const QString& path, std::function<Dataset(JobControl&)> read, const ReadOptions& options,
                              std::optional<TransformChoice> transform) {
    m_loading = true;
    Q_EMIT loadStarted(path);
    m_runner->start<Dataset>(
        this, QStringLiteral("load"), tr("Read %1").arg(QFileInfo(path).fileName()), std::move(read),
        [this, path, options, transform](const JobOutcome<Dataset>& outcome) {
            m_loading = false;
            if (outcome.state == JobState::Cancelled) {
                Q_EMIT loadCancelled(path);
                return;
            }
            if (outcome.state == JobState::Failed) {
                Q_EMIT loadFailed(path, outcome.message);
                return;
            }
            m_raw = outcome.result;
            m_path = path;
            m_options = options;
            if (transform) m_transform = *transform;
            Q_EMIT loaded(path);
            applyTransform(true);
        });
}

void DatasetSession::setTransform(const TransformChoice& choice) {
    if (choice == m_transform) return;
    m_transform = choice;
    if (m_raw) applyTransform(false);
}

void DatasetSession::applyTransform(bool newRows) {
    if (m_transform.kind == TransformChoice::Kind::None) {
        m_runner->cancelSlot(QStringLiteral("transform"));
        m_current = m_raw;
        Q_EMIT currentChanged(newRows);
        return;
    }
    const std::shared_ptr<const Dataset> raw = m_raw;
    const std::string spec = m_transform.spec().toStdString();
    m_runner->start<Dataset>(
        this, QStringLiteral("transform"), tr("Transform: %1").arg(m_transform.label()),
        [raw, spec](JobControl&) { return applyTransformSpec(*raw, spec); },
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
