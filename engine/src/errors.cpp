#include "clusterlens/errors.hpp"

namespace clusterlens {

void throwFileError(const std::string& file, const std::string& position, const std::string& reason) {
    std::string message = file;
    if (!position.empty()) message += ": " + position;
    message += ": " + reason;
    throw InvalidInput(message);
}

}  // namespace clusterlens
