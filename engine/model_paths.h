#pragma once
// Where a model's metadata lives: beside its weights, model-000100.pt ->
// model-000100.meta.textproto (nn/ writes it, store/ copies it, the Python module reads its ruleset
// from it).
#include <filesystem>
#include <string>

namespace pincer {

inline std::string model_meta_path(const std::string& pt_path) {
  return std::filesystem::path(pt_path).replace_extension(".meta.textproto").string();
}

}  // namespace pincer
