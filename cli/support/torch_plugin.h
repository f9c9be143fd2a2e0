// The torch half of `pincer`: pincer-torch.so beside the executable (cli/CMakeLists.txt), opened
// only when a command or a `net:` player needs it, so that every other command starts without
// loading LibTorch. As it loads, its commands and the `net` player kind register themselves.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pincer::cli {

// Where the library is: $PINCER_TORCH_LIBRARY, else pincer-torch.so next to the executable.
std::string torch_library_path();
// Opens the library once (thread-safe). Throws std::runtime_error naming the file and why when
// it is missing or does not load; `why` says what needed it ("command 'train'").
void load_torch_library(const std::string& why);
bool torch_library_loaded();

// The torch commands' names and help lines, from pincer-torch.commands beside the library
// (written at build time by `pincer --write-torch-manifest`); empty when there is none.
std::vector<std::pair<std::string, std::string>> torch_command_manifest();
// Loads the library and writes the manifest for the commands it registered; returns the path.
std::string write_torch_command_manifest();

}  // namespace pincer::cli
