#pragma once
// The GUI's part of a session: what the user looked at, stored as JSON in Session::viewState (the
// engine keeps it verbatim). Reading is lenient: a missing or unknown key keeps its default, so view
// states of older and newer versions open without complaint.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace clusterlens::views {

/// One colour strip of a view: what colours it ("labels": a labeling or population set, "marker": a
/// feature) and its name; mode "none" for an empty slot.
struct StripChoice {
    QString mode;
    QString name;
    bool operator==(const StripChoice&) const = default;
};

struct ViewState {
    /// Scatter axes by feature name ("FSC-A"), or components of an embedding (embedding >= 0).
    QString xAxis, yAxis;
    int embedding = -1;
    /// The scatter's zoom window in normalised coordinates (x0, x1, y0, y1); none = the whole data.
    std::optional<std::array<double, 4>> scatterWindow;
    QStringList activeFeatures;
    QString colouring;     ///< labeling that colours the views; empty = density
    QString colourMarker;  ///< marker that colours the scatter instead (short feature name); empty = none
    QString dendrogramLinkage;
    int dendrogramClusters = 0;  ///< cut k; 0 = no cut
    int dendrogramMinSize = 0;   ///< minimum cluster size of the cut; 0 = the tree's default
    QString dendrogramHeatmap;   ///< clustermap under the tree: "off", "zscore", "minmax"; empty = default
    std::vector<StripChoice> dendrogramStrips;  ///< colour strips under the leaves, by slot (at most 3)
    bool dendrogramThresholdMarks = true;       ///< MHCA size-threshold marks on the height axis
    bool dendrogramTreeIvat = false;            ///< the iVAT in tree order under the leaves
    QString dpcResult;                          ///< DPC result on the decision graph
    QString vatEntry;                           ///< VAT order on the VAT page
    int vatClusters = 0;
    QString vatImage;                    ///< "vat" or "ivat"
    std::vector<StripChoice> vatStrips;  ///< colour strips along the VAT axes, by slot (at most 3)
    QByteArray dockLayout;               ///< QMainWindow::saveState()

    bool operator==(const ViewState&) const = default;
};

std::string viewStateToJson(const ViewState& state);
/// Empty or malformed text gives the default state.
ViewState viewStateFromJson(const std::string& json);

}  // namespace clusterlens::views
