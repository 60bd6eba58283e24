#pragma once
// Numbers as text in the CSV files the engine writes: the shortest decimal that reads back exactly.

#include <string>

namespace clusterlens {

/// Appends the shortest decimal text that std::from_chars (and strtod) reads back as exactly
/// `value`: 15.55 -> "15.55", 1e-300 -> "1e-300". Non-finite values as "nan", "inf", "-inf" (the
/// spellings the text reader accepts; a NaN's sign is dropped). Locale-independent. O(1).
void appendShortest(std::string& out, double value);

/// The same for float32: the shortest text that reads back as exactly `value` when parsed as a
/// float or as a double rounded to float (at most 9 significant digits).
void appendShortest(std::string& out, float value);

/// appendShortest into a new string.
std::string shortestText(double value);

}  // namespace clusterlens
