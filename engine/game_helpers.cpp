#include "engine/game_helpers.h"

namespace pincer {

std::string grid_square_name(int file, int rank) {
  return static_cast<char>('a' + file) + std::to_string(rank + 1);
}

bool parse_grid_square(std::string_view text, int& file, int& rank) {
  if (text.size() < 2 || text.size() > 4 || text[0] < 'a' || text[0] > 'z' || text[1] < '1' ||
      text[1] > '9') {
    return false;
  }
  int number = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    number = number * 10 + (text[i] - '0');
  }
  file = text[0] - 'a';
  rank = number - 1;
  return true;
}

int parse_side_name(std::string_view text, std::string_view name0, std::string_view name1) {
  const std::string_view names[2] = {name0, name1};
  for (int p = 0; p < 2; ++p) {
    if (!names[p].empty() && (text == names[p] || text == names[p].substr(0, 1))) return p;
  }
  return -1;
}

std::string grid_diagram(int size, int width, int gap,
                         const std::function<std::string(int file, int rank)>& cell) {
  std::string files = "    ";
  for (int f = 0; f < size; ++f) {
    files += ' ';
    files += static_cast<char>('a' + f);
    if (f + 1 < size) files.append(width - 2, ' ');
  }
  files += '\n';
  std::string out = files;
  for (int rank = size - 1; rank >= 0; --rank) {
    const std::string number = std::to_string(rank + 1);
    out += "  " + number + " ";
    for (int file = 0; file < size; ++file) out += cell(file, rank);
    out.append(gap, ' ');
    out += number + "\n";
  }
  return out + files;
}

}  // namespace pincer
