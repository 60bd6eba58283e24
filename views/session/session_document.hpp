#pragma once
// The document of the workbench: one engine Session (session.hpp) — the data file's reference, every
// named result, the populations and the GUI's view state — with the file it was saved to and whether
// it holds unsaved work. Every change goes through this object, so its signals tell the panels what to
// redraw and the autosave what to write. The engine's names are kept for every concept: a linkage, a
// labeling, a DPC result, a VAT entry, a comparison, a population.

#include <QObject>
#include <QString>

#include <string>
#include <vector>

#include "clusterlens/session/session.hpp"

namespace clusterlens::views {

class SessionDocument : public QObject {
    Q_OBJECT
public:
    explicit SessionDocument(QObject* parent = nullptr);

    const Session& session() const { return m_session; }
    const std::vector<Population>& populations() const { return m_session.populations; }
    const Population* population(const QString& name) const;

    /// The session file (absolute path); empty for a session never saved.
    const QString& path() const { return m_path; }
    /// The file's name, or "Untitled".
    QString displayName() const;
    /// True when the document holds work not yet saved to path().
    bool isModified() const { return m_modified; }
    /// Grows with every change of the work (not with the view state): tells whether a save in flight
    /// still describes the document when it ends.
    quint64 revision() const { return m_revision; }
    /// True when something changed since the last autosave (also a newly loaded data file, which is
    /// not worth asking about on quit but worth recovering).
    bool needsAutosave() const { return m_autosaveDirty; }
    void markAutosaved() { m_autosaveDirty = false; }

    /// Replaces the whole document (New, Open, a restored recovery file). `modified` is true for a
    /// recovery file: its work was never saved.
    void reset(Session session, const QString& path, bool modified = false);
    /// The document was written to `path`.
    void markSaved(const QString& path);
    void setModified(bool modified);

    /// The same data, newly described (its hash became known, or its transform changed).
    void setDataReference(DatasetReference data);

    /// Adds or replaces (by name) a result. Each marks the document modified and emits resultsChanged().
    void putLinkage(LinkageResult result);
    void putLabeling(LabelingResult result);
    void putDpc(DpcResult result);
    void putVat(VatEntry entry);
    void putComparison(ComparisonResult result);
    /// Removes the labeling `name` (an undone analysis); returns whether there was one.
    bool removeLabeling(const QString& name);

    /// Adds or replaces (by name) a population; `position` < 0 appends a new one.
    void putPopulation(Population population, int position = -1);
    /// Removes the population `name` (not its children); returns its former position or -1.
    int removePopulation(const QString& name);
    /// Renames a population and re-points its children at the new name.
    void renamePopulation(const QString& from, const QString& to);
    void setPopulationColour(const QString& name, const QString& colour);
    void setPopulationVisible(const QString& name, bool visible);

    /// The GUI's view state (JSON); not a modification of the work.
    void setViewState(std::string json) { m_session.viewState = std::move(json); }

Q_SIGNALS:
    /// Everything changed (reset or a new data file).
    void documentReset();
    void resultsChanged();
    /// Populations were added, removed or renamed (the tree changes shape).
    void populationsChanged();
    /// Colour or visibility of `name` changed (the tree keeps its shape).
    void populationStyleChanged(const QString& name);
    void modifiedChanged(bool modified);
    void pathChanged(const QString& path);

private:
    void touch();
    template <typename T>
    void putResult(std::vector<T>& results, T result);
    Population* mutablePopulation(const QString& name);

    Session m_session;
    QString m_path;
    bool m_modified = false;
    bool m_autosaveDirty = false;
    quint64 m_revision = 0;
};

}  // namespace clusterlens::views
