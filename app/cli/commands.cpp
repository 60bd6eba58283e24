#include "commands.hpp"

namespace clusterlens::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> list = {
        {"info", runInfo, "info INPUT [--json]"},
    };
    return list;
}

} // namespace clusterlens::cli
