#include "clusterlens/io/text_file.hpp"

#include <cstdio>

#include "clusterlens/errors.hpp"
#include "clusterlens/io/atomic_file.hpp"

namespace clusterlens {

void writeTextFile(const std::string& path, const std::string& text) {
    writeFileAtomically(path, [&](const std::string& temp) {
        std::FILE* file = std::fopen(temp.c_str(), "wb");
        if (!file) throwFileError(path, "", "cannot open the file for writing");
        const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
        if (std::fclose(file) != 0 || !written) throwFileError(path, "", "write failed (disk full?)");
    });
}

}  // namespace clusterlens
