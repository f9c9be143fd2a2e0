#include "serve/shipped.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "engine/ruleset.h"

namespace pincer::serve {
namespace fs = std::filesystem;

std::string find_models_dir(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) {
    std::error_code ec;
    if (!fs::is_directory(explicit_dir, ec)) {
      throw std::invalid_argument("--models " + explicit_dir + ": no such folder");
    }
    return explicit_dir;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) {
    const fs::path dir = exe.parent_path();
    candidates = {dir / ".." / "models", dir / ".." / ".." / "models",
                  dir / ".." / "share" / "pincer" / "models"};
  }
  candidates.push_back(fs::current_path(ec) / "models");
  for (const fs::path& c : candidates) {
    std::error_code e;
    if (fs::is_directory(c, e)) return fs::weakly_canonical(c, e).string();
  }
  return "";
}

std::vector<ShippedChoice> shipped_choices(const std::vector<std::string>& rules,
                                           const std::string& models_dir) {
  std::vector<ShippedChoice> out;
  for (const std::string& r : rules.empty() ? shipped_ruleset_names() : rules) {
    ShippedChoice c;
    c.rules = r;
    if (!models_dir.empty()) {
      // A ruleset given as a file is looked up by its file name without the extension.
      const std::string stem = fs::path(r).stem().string();
      const fs::path model = fs::path(models_dir) / (stem + ".pt");
      const fs::path book = fs::path(models_dir) / (stem + ".book");
      std::error_code ec;
      if (fs::is_regular_file(model, ec)) c.model = model.string();
      if (fs::is_regular_file(book, ec)) c.book = book.string();
    }
    out.push_back(std::move(c));
  }
  // The page's default game is the first one: the reference ruleset when it is served, then the
  // others with a model, then the rest.
  std::stable_sort(out.begin(), out.end(), [](const ShippedChoice& a, const ShippedChoice& b) {
    const auto rank = [](const ShippedChoice& c) {
      return c.rules == kDefaultRuleset ? 0 : c.model.empty() ? 2 : 1;
    };
    return rank(a) < rank(b);
  });
  return out;
}

std::vector<std::string> use_shipped(BackendOptions& options, const std::string& models_dir) {
  if (!options.models.empty() || !options.player.empty()) return {};
  const std::vector<ShippedChoice> choices = shipped_choices(options.rules, models_dir);
  options.rules.clear();
  options.models.clear();
  std::vector<std::string> books;
  for (const ShippedChoice& c : choices) {
    options.rules.push_back(c.rules);
    options.models.push_back(c.model);
    if (!c.book.empty()) books.push_back(c.book);
  }
  options.player = kFallbackPlayer;
  options.models_optional = true;
  return books;
}

}  // namespace pincer::serve
