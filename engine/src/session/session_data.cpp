// DatasetReference <-> data file (session_data.hpp).

#include "clusterlens/session/session_data.hpp"

#include <charconv>
#include <filesystem>
#include <set>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/file_hash.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"

namespace clusterlens {
namespace {

/// The default cofactor of "asinh" / "asinh:X".
double asinhCofactor(const std::string& spec) {
    if (spec == "asinh") return 5.0;
    double cofactor = 0.0;
    const char* first = spec.data() + 6;
    const char* last = spec.data() + spec.size();
    const auto [ptr, ec] = std::from_chars(first, last, cofactor);
    if (spec.rfind("asinh:", 0) != 0 || ec != std::errc() || ptr != last || !(cofactor > 0.0))
        throw InvalidInput("--transform: per-channel cofactors need an asinh transform (asinh:COFACTOR), got '" + spec +
                           "'");
    return cofactor;
}

/// asinh with the default cofactor on every column but the overridden ones, which get their own (a
/// cofactor of 0 leaves that column as read).
Dataset asinhPerChannel(const Dataset& in, const DatasetReadSpec& spec, const JobControl* control) {
    const double fallback = asinhCofactor(spec.transform);
    std::set<std::size_t> overridden;
    for (const ChannelCofactor& c : spec.cofactors) {
        const long column = in.featureIndex(c.channel);
        if (column < 0) throw InvalidInput("cofactor for channel '" + c.channel + "': no such feature in the data");
        if (!(c.cofactor >= 0.0))
            throw InvalidInput("cofactor for channel '" + c.channel + "' must be positive (or 0: left as read)");
        if (!overridden.insert(static_cast<std::size_t>(column)).second)
            throw InvalidInput("cofactor for channel '" + c.channel + "' is given twice");
    }
    std::vector<std::size_t> rest;
    for (std::size_t j = 0; j < in.d; ++j)
        if (!overridden.count(j)) rest.push_back(j);
    Dataset out = rest.empty() ? in : asinhTransform(in, fallback, rest, control);
    for (const ChannelCofactor& c : spec.cofactors)
        if (c.cofactor > 0.0)
            out = asinhTransform(out, c.cofactor, {static_cast<std::size_t>(in.featureIndex(c.channel))}, control);
    return out;
}

}  // namespace

Dataset prepareData(Dataset raw, const DatasetReadSpec& spec, const JobControl* control) {
    if (!spec.columns.empty()) raw = selectColumns(raw, resolveColumns(raw, spec.columns));
    if (!spec.cofactors.empty())
        raw = asinhPerChannel(raw, spec, control);
    else if (!spec.transform.empty())
        raw = applyTransformSpec(raw, spec.transform, control);
    if (spec.subsample != 0) raw = subsample(raw, spec.subsample, spec.seed);
    return raw;
}

DatasetReference describeDataFile(const std::string& path, const DatasetReadSpec& spec, const Dataset& prepared,
                                  const JobControl* control) {
    DatasetReference reference;
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    reference.path = ec ? path : absolute.lexically_normal().string();
    reference.fileSize = std::filesystem::file_size(path, ec);
    if (ec) throwFileError(path, "", "cannot read the file's size (" + ec.message() + ")");
    reference.sha256 = sha256File(path, control);
    reference.read = spec;
    reference.n = prepared.n;
    reference.d = prepared.d;
    reference.features = prepared.features;
    return reference;
}

void embedData(DatasetReference& reference, const Dataset& prepared) {
    if (prepared.n != reference.n || prepared.d != reference.d || prepared.values.size() != prepared.n * prepared.d)
        throw InvalidInput("embedding the data: it has " + std::to_string(prepared.n) + " x " +
                           std::to_string(prepared.d) + " values, the session's data " + std::to_string(reference.n) +
                           " x " + std::to_string(reference.d));
    reference.embedded = EmbeddedData{prepared.values, prepared.features};
}

Dataset loadReferencedData(const DatasetReference& reference, const std::string& path, JobControl* control) {
    Dataset data;
    if (reference.embedded) {
        data.n = reference.n;
        data.d = reference.d;
        data.values = reference.embedded->values;
        data.features = reference.embedded->features;
        data.provenance.path = reference.path;
        data.provenance.format = "session";
        data.provenance.detail = "data embedded in the session";
        return data;
    }
    const std::string file = path.empty() ? reference.path : path;
    requireSameDataFile(reference, file, control);
    ReadOptions options = readOptionsOf(reference.read);
    options.control = control;
    data = prepareData(readDataset(file, options), reference.read, control);
    if (data.n != reference.n || data.d != reference.d)
        throwFileError(file, "",
                       "read as " + std::to_string(data.n) + " x " + std::to_string(data.d) +
                           " values, but the session recorded " + std::to_string(reference.n) + " x " +
                           std::to_string(reference.d));
    return data;
}

}  // namespace clusterlens
