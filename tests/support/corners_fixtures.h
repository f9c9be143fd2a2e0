// Helpers for the corners tests: hand-made positions from lists of places.
#pragma once

#include <string>

namespace pincer::corners::testing {

// The position text with white/black square pieces and point pieces at the named places
// ("b2 c3", "d4' e5'"), `side` "w" or "b", the reserves and the ply.
inline std::string corners_position(const std::string& white_squares,
                                    const std::string& black_squares,
                                    const std::string& white_points,
                                    const std::string& black_points, const std::string& side = "w",
                                    int white_reserve = 0, int black_reserve = 0, int ply = 10) {
  std::string sq(64, '.'), pt(49, '.');
  auto mark = [](std::string& grid, int n, const std::string& list, char c) {
    for (size_t i = 0; i + 1 < list.size() + 1;) {
      while (i < list.size() && list[i] == ' ') ++i;
      if (i >= list.size()) break;
      const int f = list[i] - 'a', r = list[i + 1] - '1';
      grid[static_cast<size_t>(f + n * r)] = c;
      i += 2;
      if (i < list.size() && list[i] == '\'') ++i;
    }
  };
  mark(sq, 8, white_squares, 'W');
  mark(sq, 8, black_squares, 'B');
  mark(pt, 7, white_points, 'W');
  mark(pt, 7, black_points, 'B');
  std::string out;
  for (int r = 7; r >= 0; --r) out += sq.substr(r * 8, 8) + (r ? "/" : " ");
  for (int r = 6; r >= 0; --r) out += pt.substr(r * 7, 7) + (r ? "/" : " ");
  return out + side + " " + std::to_string(white_reserve) + " " + std::to_string(black_reserve) +
         " " + std::to_string(ply);
}

}  // namespace pincer::corners::testing
