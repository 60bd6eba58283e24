// SHA-256 after FIPS 180-4, section 6.2: 64 rounds over 512-bit blocks, big-endian words.

#include "clusterlens/io/file_hash.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {
namespace {

constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

std::uint32_t rotr(std::uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

/// Incremental hasher: feed bytes in any pieces, then finish once.
class Sha256 {
public:
    void update(const unsigned char* data, std::size_t size) {
        m_length += size;
        while (size > 0) {
            const std::size_t take = std::min(size, m_block.size() - m_used);
            std::memcpy(m_block.data() + m_used, data, take);
            m_used += take, data += take, size -= take;
            if (m_used == m_block.size()) compress(), m_used = 0;
        }
    }

    std::string finish() {
        const std::uint64_t bits = m_length * 8;
        const unsigned char one = 0x80, zero = 0;
        update(&one, 1);
        while (m_used != 56) update(&zero, 1);
        unsigned char tail[8];
        for (int i = 0; i < 8; ++i) tail[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
        update(tail, 8);
        static const char* hex = "0123456789abcdef";
        std::string out;
        for (std::uint32_t word : m_state)
            for (int shift = 28; shift >= 0; shift -= 4) out += hex[(word >> shift) & 0xf];
        return out;
    }

private:
    void compress() {
        std::array<std::uint32_t, 64> w{};
        for (int t = 0; t < 16; ++t)
            w[t] = std::uint32_t(m_block[4 * t]) << 24 | std::uint32_t(m_block[4 * t + 1]) << 16 |
                   std::uint32_t(m_block[4 * t + 2]) << 8 | std::uint32_t(m_block[4 * t + 3]);
        for (int t = 16; t < 64; ++t) {
            const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        auto v = m_state;
        for (int t = 0; t < 64; ++t) {
            const std::uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
            const std::uint32_t choose = (v[4] & v[5]) ^ (~v[4] & v[6]);
            const std::uint32_t t1 = v[7] + s1 + choose + kRound[t] + w[t];
            const std::uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
            const std::uint32_t majority = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            v = {t1 + s0 + majority, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
        }
        for (int i = 0; i < 8; ++i) m_state[i] += v[i];
    }

    std::array<std::uint32_t, 8> m_state = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::array<unsigned char, 64> m_block{};
    std::size_t m_used = 0;
    std::uint64_t m_length = 0;
};

/// Bytes hashed between two looks at a JobControl: a few milliseconds of work.
constexpr std::size_t kBytesPerCancelCheck = std::size_t{1} << 20;

}  // namespace

std::string sha256Hex(const void* data, std::size_t size, const JobControl* control) {
    Sha256 hash;
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t done = 0; done < size; done += kBytesPerCancelCheck) {
        if (control != nullptr) control->checkCancelled();
        hash.update(bytes + done, std::min(kBytesPerCancelCheck, size - done));
    }
    return hash.finish();
}

std::string sha256File(const std::string& path, const JobControl* control) {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file)
        throwFileError(path, "", std::string("cannot open the file to compute its SHA-256: ") + std::strerror(errno));
    Sha256 hash;
    std::vector<unsigned char> buffer(kBytesPerCancelCheck);
    std::size_t got = 0;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
        if (control != nullptr) control->checkCancelled();
        hash.update(buffer.data(), got);
    }
    if (std::ferror(file.get())) throwFileError(path, "", "read error while computing its SHA-256");
    return hash.finish();
}

}  // namespace clusterlens
