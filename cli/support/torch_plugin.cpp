#include "cli/support/torch_plugin.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <stdexcept>

#include "cli/support/commands.h"
#include "engine/atomic_file.h"

namespace fs = std::filesystem;

namespace pincer::cli {
namespace {

std::mutex load_mutex;
bool loaded = false;

std::string executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "." : exe.parent_path().string();
}

std::string manifest_path() {
  return (fs::path(torch_library_path()).parent_path() / "pincer-torch.commands").string();
}

}  // namespace

std::string torch_library_path() {
  if (const char* env = std::getenv("PINCER_TORCH_LIBRARY"); env && *env) return env;
  return (fs::path(executable_dir()) / "pincer-torch.so").string();
}

bool torch_library_loaded() {
  std::lock_guard<std::mutex> lock(load_mutex);
  return loaded;
}

void load_torch_library(const std::string& why) {
  std::lock_guard<std::mutex> lock(load_mutex);
  if (loaded) return;
  const std::string path = torch_library_path();
  if (!fs::exists(path)) {
    throw std::runtime_error(why + " needs the network part of pincer, " + path +
                             ", which is missing (build pincer with LibTorch: "
                             "-DPINCER_WITH_TORCH=ON)");
  }
  if (!::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const char* err = ::dlerror();
    throw std::runtime_error(why + " needs the network part of pincer, " + path +
                             ", which does not load: " + (err ? err : "unknown error"));
  }
  loaded = true;
}

std::vector<std::pair<std::string, std::string>> torch_command_manifest() {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(manifest_path());
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0) continue;
    out.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return out;
}

std::string write_torch_command_manifest() {
  std::set<std::string> core;
  for (const Command& c : commands()) core.insert(c.name);
  load_torch_library("writing the command list");
  std::string text;
  for (const Command& c : commands()) {
    if (!core.count(c.name)) text += c.name + "\t" + c.help + "\n";
  }
  const std::string path = manifest_path();
  atomic_write_file(path, text);
  return path;
}

}  // namespace pincer::cli
