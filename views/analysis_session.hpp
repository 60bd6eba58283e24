#pragma once
// What the user has computed on the current dataset and what is linked between views: named
// hierarchical clusterings (linkages), named flat labelings (dendrogram cuts, DPC, k-means, ground
// truth), the labeling that colours every view, and the current point selection. All results are
// immutable shared objects, so views hold them without copies. Cleared when a new file is loaded.
// It also mirrors the session's populations (name -> members), so that every analysis form can offer
// to run on one; a result computed on a population keeps that scope (ResultScope).

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "scatter/scatter_data.hpp"

namespace clusterlens::views {

using LabelVector = std::vector<std::int32_t>;
using IndexVector = std::vector<std::int64_t>;

/// The events a result was computed on: all (population empty, members null) or a population's
/// members (ascending whole-dataset indices). Labelings are whole-dataset (non-members -1); a linkage
/// of a population has one leaf per member, in member order.
struct ResultScope {
    QString population;
    std::shared_ptr<const IndexVector> members;
    bool isAll() const { return !members; }
};

class AnalysisSession : public QObject {
    Q_OBJECT
public:
    explicit AnalysisSession(QObject* parent = nullptr);

    /// Adds or replaces a linkage; `description` says how it was made ("MHCA FMD, threshold 0.5, cuda").
    void addLinkage(const QString& name, std::shared_ptr<const Linkage> linkage, const QString& description = {},
                    ResultScope scope = {});
    QStringList linkageNames() const;
    std::shared_ptr<const Linkage> linkage(const QString& name) const;
    QString linkageDescription(const QString& name) const;
    /// The events the linkage clustered (all events for an unknown name).
    ResultScope linkageScope(const QString& name) const;

    /// Adds or replaces a labeling (size N, -1 = noise or outside the scope's population).
    void addLabeling(const QString& name, std::shared_ptr<const LabelVector> labels, ResultScope scope = {});
    QStringList labelingNames() const;
    std::shared_ptr<const LabelVector> labeling(const QString& name) const;
    ResultScope labelingScope(const QString& name) const;
    /// Removes a labeling (an undone analysis); the colouring by it becomes none.
    void removeLabeling(const QString& name);
    /// Own colours and names of a labeling's labels (populations); null = the palette's.
    void setLabelingStyle(const QString& name, std::shared_ptr<const LabelStyle> style);
    std::shared_ptr<const LabelStyle> labelingStyle(const QString& name) const;

    /// The labeling that colours the data scatter and the other views (empty name: none).
    void setColouring(const QString& labelingName);
    const QString& colouring() const { return m_colouring; }
    std::shared_ptr<const LabelVector> colouringLabels() const { return labeling(m_colouring); }
    /// Colours the views by the values of one marker (feature) instead of a labeling; the labeling
    /// colouring becomes none, as a labeling colouring makes the marker none.
    void setMarkerColouring(const QString& feature);
    const QString& colouringMarker() const { return m_marker; }

    /// Linked selection: point indices in ascending order. `origin` is the view that made it, so it
    /// can ignore its own echo.
    void setSelection(std::shared_ptr<const IndexVector> indices, const QObject* origin);
    std::shared_ptr<const IndexVector> selection() const { return m_selection; }

    /// The session's populations (name -> ascending members), replacing those known before.
    void setPopulations(std::map<QString, std::shared_ptr<const IndexVector>> populations);
    QStringList populationNames() const;
    /// Members of a population, null for an unknown name.
    std::shared_ptr<const IndexVector> populationMembers(const QString& name) const;

    /// Forgets every result and the selection (a new file was loaded); the populations follow the
    /// session document and stay until setPopulations.
    void clear();

Q_SIGNALS:
    void linkagesChanged();
    void labelingsChanged();
    void colouringChanged(const QString& name);
    void selectionChanged(const QObject* origin);
    void populationsChanged();

private:
    struct LinkageEntry {
        std::shared_ptr<const Linkage> linkage;
        QString description;
        ResultScope scope;
    };
    std::map<QString, LinkageEntry> m_linkages;
    std::map<QString, std::shared_ptr<const LabelVector>> m_labelings;
    std::map<QString, std::shared_ptr<const LabelStyle>> m_styles;
    std::map<QString, ResultScope> m_labelingScopes;
    std::map<QString, std::shared_ptr<const IndexVector>> m_populations;
    QString m_colouring;
    QString m_marker;
    std::shared_ptr<const IndexVector> m_selection = std::make_shared<IndexVector>();
};

}  // namespace clusterlens::views
