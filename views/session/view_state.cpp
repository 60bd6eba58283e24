#include "session/view_state.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace clusterlens::views {

namespace {

QJsonArray toArray(const QStringList& list) {
    QJsonArray array;
    for (const QString& text : list) array.append(text);
    return array;
}

QStringList toList(const QJsonValue& value) {
    QStringList list;
    for (const QJsonValue& item : value.toArray())
        if (item.isString()) list << item.toString();
    return list;
}

QJsonArray toArray(const std::vector<StripChoice>& strips) {
    QJsonArray array;
    for (const StripChoice& strip : strips)
        array.append(QJsonObject{{QStringLiteral("mode"), strip.mode}, {QStringLiteral("name"), strip.name}});
    return array;
}

std::vector<StripChoice> toStrips(const QJsonValue& value) {
    std::vector<StripChoice> strips;
    for (const QJsonValue& item : value.toArray()) {
        const QJsonObject strip = item.toObject();
        strips.push_back(
            {strip.value(QStringLiteral("mode")).toString(), strip.value(QStringLiteral("name")).toString()});
    }
    return strips;
}

}  // namespace

std::string viewStateToJson(const ViewState& s) {
    QJsonObject scatter{
        {QStringLiteral("x"), s.xAxis}, {QStringLiteral("y"), s.yAxis}, {QStringLiteral("embedding"), s.embedding}};
    if (s.scatterWindow) {
        const auto& w = *s.scatterWindow;
        scatter.insert(QStringLiteral("window"), QJsonArray{w[0], w[1], w[2], w[3]});
    }
    const QJsonObject root{
        {QStringLiteral("version"), 1},
        {QStringLiteral("scatter"), scatter},
        {QStringLiteral("activeFeatures"), toArray(s.activeFeatures)},
        {QStringLiteral("colouring"), s.colouring},
        {QStringLiteral("colourMarker"), s.colourMarker},
        {QStringLiteral("dendrogram"), QJsonObject{{QStringLiteral("linkage"), s.dendrogramLinkage},
                                                   {QStringLiteral("clusters"), s.dendrogramClusters},
                                                   {QStringLiteral("minSize"), s.dendrogramMinSize},
                                                   {QStringLiteral("heatmap"), s.dendrogramHeatmap},
                                                   {QStringLiteral("strips"), toArray(s.dendrogramStrips)},
                                                   {QStringLiteral("thresholdMarks"), s.dendrogramThresholdMarks},
                                                   {QStringLiteral("treeIvat"), s.dendrogramTreeIvat}}},
        {QStringLiteral("dpc"), QJsonObject{{QStringLiteral("result"), s.dpcResult}}},
        {QStringLiteral("vat"), QJsonObject{{QStringLiteral("entry"), s.vatEntry},
                                            {QStringLiteral("clusters"), s.vatClusters},
                                            {QStringLiteral("image"), s.vatImage},
                                            {QStringLiteral("strips"), toArray(s.vatStrips)}}},
        {QStringLiteral("dockLayout"), QString::fromLatin1(s.dockLayout.toBase64())},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Compact).toStdString();
}

ViewState viewStateFromJson(const std::string& json) {
    ViewState s;
    const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
    const QJsonObject scatter = root.value(QStringLiteral("scatter")).toObject();
    s.xAxis = scatter.value(QStringLiteral("x")).toString();
    s.yAxis = scatter.value(QStringLiteral("y")).toString();
    s.embedding = scatter.value(QStringLiteral("embedding")).toInt(-1);
    const QJsonArray window = scatter.value(QStringLiteral("window")).toArray();
    if (window.size() == 4)
        s.scatterWindow = std::array<double, 4>{window[0].toDouble(), window[1].toDouble(), window[2].toDouble(),
                                                window[3].toDouble()};
    s.activeFeatures = toList(root.value(QStringLiteral("activeFeatures")));
    s.colouring = root.value(QStringLiteral("colouring")).toString();
    s.colourMarker = root.value(QStringLiteral("colourMarker")).toString();
    const QJsonObject dendrogram = root.value(QStringLiteral("dendrogram")).toObject();
    s.dendrogramLinkage = dendrogram.value(QStringLiteral("linkage")).toString();
    s.dendrogramClusters = dendrogram.value(QStringLiteral("clusters")).toInt();
    s.dendrogramMinSize = dendrogram.value(QStringLiteral("minSize")).toInt();
    s.dendrogramHeatmap = dendrogram.value(QStringLiteral("heatmap")).toString();
    s.dendrogramStrips = toStrips(dendrogram.value(QStringLiteral("strips")));
    s.dendrogramThresholdMarks = dendrogram.value(QStringLiteral("thresholdMarks")).toBool(true);
    s.dendrogramTreeIvat = dendrogram.value(QStringLiteral("treeIvat")).toBool(false);
    s.dpcResult = root.value(QStringLiteral("dpc")).toObject().value(QStringLiteral("result")).toString();
    const QJsonObject vat = root.value(QStringLiteral("vat")).toObject();
    s.vatEntry = vat.value(QStringLiteral("entry")).toString();
    s.vatClusters = vat.value(QStringLiteral("clusters")).toInt();
    s.vatImage = vat.value(QStringLiteral("image")).toString();
    s.vatStrips = toStrips(vat.value(QStringLiteral("strips")));
    s.dockLayout = QByteArray::fromBase64(root.value(QStringLiteral("dockLayout")).toString().toLatin1());
    return s;
}

}  // namespace clusterlens::views
