#pragma once
// `export INPUT --session FILE [--population NAME [--all-events]] [--labeling NAME]`: which of INPUT's
// events a session's indices name, a population's events (or a membership channel over all events) and
// a stored labeling as a cluster channel for the export.

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "clusterlens/io/write_dataset.hpp"
#include "clusterlens/session/session.hpp"

namespace clusterlens::cli {

class ExportSession {
public:
    /// Reads FILE (exit 3 when damaged, foreign or newer) and checks that INPUT is its data file (same
    /// SHA-256) with `sourceEvents` events as stored, of which the session's --subsample kept its n.
    /// --subsample/--seed are the session's: UsageError when they are given too.
    ExportSession(const Args& args, const std::string& input, std::size_t sourceEvents);

    /// INPUT's indices of the session's events (what its analyses saw); nullopt = all events.
    const std::optional<std::vector<std::int64_t>>& analysed() const { return m_analysed; }

    /// --population NAME: writes only its events, or with --all-events (or `asChannel`) every analysed
    /// event plus a membership channel (1 = member) named after the population. Nothing without
    /// --population.
    void select(const Args& args, ExportSelection& selection, bool asChannel = false) const;

    /// --labeling NAME: appends the stored labeling as a cluster channel named NAME over INPUT's events
    /// (-1 outside the analysed ones) and returns its cluster names. Nothing without --labeling.
    std::vector<std::string> addLabeling(const Args& args, ExportSelection& selection) const;

private:
    std::string m_path;
    std::size_t m_sourceEvents = 0;
    Session m_session;
    std::optional<std::vector<std::int64_t>> m_analysed;
};

}  // namespace clusterlens::cli
