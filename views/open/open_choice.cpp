#include "open/open_choice.hpp"

#include <QFileInfo>
#include <QSettings>
#include <QVariantMap>

#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"

namespace clusterlens::views {

namespace {

const QString kChoicesKey = QStringLiteral("files/openChoices");
constexpr int kRememberedFiles = 50;

QStringList choiceList(const std::vector<std::string>& values) {
    QStringList out;
    for (const std::string& value : values) out << QString::fromStdString(value);
    return out;
}

std::vector<std::string> fromList(const QStringList& values) {
    std::vector<std::string> out;
    for (const QString& value : values) out.push_back(value.toStdString());
    return out;
}

QVariantMap toMap(const OpenChoice& choice) {
    const DatasetReadSpec& s = choice.spec;
    QVariantList cofactors;
    for (const ChannelCofactor& c : s.cofactors)
        cofactors << QVariantList{QString::fromStdString(c.channel), c.cofactor};
    return {{QStringLiteral("columns"), choiceList(s.columns)},
            {QStringLiteral("transform"), QString::fromStdString(s.transform)},
            {QStringLiteral("cofactors"), cofactors},
            {QStringLiteral("compensate"), s.compensate},
            {QStringLiteral("dataset"), QString::fromStdString(s.h5Dataset)},
            {QStringLiteral("embedding"), QString::fromStdString(s.embedding)},
            {QStringLiteral("labelColumn"), QString::fromStdString(s.labelColumn)},
            {QStringLiteral("subsample"), QVariant::fromValue<qulonglong>(s.subsample)},
            {QStringLiteral("seed"), QVariant::fromValue<qulonglong>(s.seed)},
            {QStringLiteral("scatter"),
             QStringList{QString::fromStdString(choice.scatter.embedding), QString::number(choice.scatter.x),
                         QString::number(choice.scatter.y), QString::fromStdString(choice.scatter.xName),
                         QString::fromStdString(choice.scatter.yName)}}};
}

OpenChoice fromMap(const QVariantMap& map) {
    OpenChoice choice;
    DatasetReadSpec& s = choice.spec;
    s.columns = fromList(map.value(QStringLiteral("columns")).toStringList());
    s.transform = map.value(QStringLiteral("transform")).toString().toStdString();
    for (const QVariant& entry : map.value(QStringLiteral("cofactors")).toList()) {
        const QVariantList pair = entry.toList();
        if (pair.size() == 2) s.cofactors.push_back({pair[0].toString().toStdString(), pair[1].toDouble()});
    }
    s.compensate = map.value(QStringLiteral("compensate")).toBool();
    s.h5Dataset = map.value(QStringLiteral("dataset")).toString().toStdString();
    s.embedding = map.value(QStringLiteral("embedding")).toString().toStdString();
    s.labelColumn = map.value(QStringLiteral("labelColumn")).toString().toStdString();
    s.subsample = map.value(QStringLiteral("subsample")).toULongLong();
    s.seed = map.value(QStringLiteral("seed"), 1).toULongLong();
    const QStringList scatter = map.value(QStringLiteral("scatter")).toStringList();
    if (scatter.size() == 5)
        choice.scatter = {scatter[0].toStdString(), scatter[1].toULongLong(), scatter[2].toULongLong(),
                          scatter[3].toStdString(), scatter[4].toStdString()};
    return choice;
}

}  // namespace

OpenChoice proposeOpenChoice(const Dataset& raw, const JobControl* control) {
    const DefaultReadSpec proposal = proposeReadSpec(raw, control);
    OpenChoice choice;
    choice.spec = proposal.read;
    choice.scatter = proposal.scatter;
    choice.reason = QString::fromStdString(proposal.reason);
    return choice;
}

TransformChoice transformOf(const DatasetReadSpec& spec) {
    TransformChoice choice = TransformChoice::fromSpec(QString::fromStdString(spec.transform));
    choice.cofactors = spec.cofactors;
    return choice;
}

bool sameRead(const DatasetReadSpec& a, const DatasetReadSpec& b) {
    return a.compensate == b.compensate && a.h5Dataset == b.h5Dataset && a.embedding == b.embedding &&
           a.labelColumn == b.labelColumn && a.subsample == b.subsample && (a.subsample == 0 || a.seed == b.seed);
}

Dataset readChosen(const std::string& path, const DatasetReadSpec& spec, JobControl* control) {
    ReadOptions options = readOptionsOf(spec);
    options.control = control;
    Dataset data = readDataset(path, options);
    if (spec.subsample != 0) data = subsample(data, spec.subsample, spec.seed);
    return data;
}

ProposedRead readWithDefaults(const std::string& path, JobControl* control) {
    ReadOptions defaults;
    defaults.control = control;
    auto data = std::make_shared<Dataset>(readDataset(path, defaults));
    ProposedRead out{data, proposeOpenChoice(*data, control)};
    if (out.choice.spec.compensate) {
        ReadOptions compensated = readOptionsOf(out.choice.spec);
        compensated.control = control;
        out.data = std::make_shared<const Dataset>(readDataset(path, compensated));
    }
    return out;
}

void rememberOpenChoice(const QString& path, const OpenChoice& choice) {
    QSettings settings;
    QVariantMap all = settings.value(kChoicesKey).toMap();
    all.insert(QFileInfo(path).absoluteFilePath(), toMap(choice));
    while (all.size() > kRememberedFiles) all.erase(all.begin());
    settings.setValue(kChoicesKey, all);
}

std::optional<OpenChoice> rememberedOpenChoice(const QString& path) {
    const QVariantMap all = QSettings().value(kChoicesKey).toMap();
    const auto it = all.constFind(QFileInfo(path).absoluteFilePath());
    if (it == all.constEnd()) return std::nullopt;
    return fromMap(it->toMap());
}

}  // namespace clusterlens::views
