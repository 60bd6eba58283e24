#include "commands.hpp"

namespace clusterlens::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> list = {
        {"info", runInfo, "info INPUT [--json]"},
        {"compare", runCompare, "compare LABELS_A.csv LABELS_B.csv [--matching hungarian|greedy] [--json]"},
    };
    return list;
}

} // namespace clusterlens::cli
