#pragma once
// The stored name of a hierarchical clustering, one spelling for the CLI and the views.

#include <string>

#include "clusterlens/hca/hca.hpp"

namespace clusterlens {

/// The name a clustering is stored under in a session: "MHCA full t=0.5" (the variant's id, the
/// threshold as printf's %g) or "average linkage"; without a population suffix. Never translated.
std::string hcaResultName(const HcaRequest& request);

}  // namespace clusterlens
