// Model files and trainer checkpoints as their loaders first see them: the checked header
// (engine/checked_file.h) around the torch archive. Never crash; an accepted file is exactly what
// the writer makes of its payload (so torch's archive reader only ever sees bytes pincer wrote,
// checksum verified), and a file of one kind is never accepted as the other. The first byte picks
// the kind the loader expects; the rest is the file.
#include <string>
#include <string_view>

#include "engine/checked_file.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  if (size == 0) return 0;
  const CheckedKind kind = data[0] & 1 ? CheckedKind::trainer_checkpoint : CheckedKind::model;
  const CheckedKind other =
      kind == CheckedKind::model ? CheckedKind::trainer_checkpoint : CheckedKind::model;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const Unwrapped file = unwrap_checked(bytes, kind);
  if (!file.ok) {
    if (file.error.empty()) fuzz::broken("a refused file without a reason");
    return 0;
  }
  if (file.legacy) {
    // A bare torch archive from before checked files: passed on whole, as either kind.
    if (file.payload != bytes || bytes.substr(0, 4) != std::string_view("PK\3\4", 4))
      fuzz::broken("legacy archive not passed on whole");
    return 0;
  }
  if (wrap_checked(file.payload, kind) != bytes)
    fuzz::broken("accepted bytes the writer never makes");
  if (unwrap_checked(bytes, other).ok) fuzz::broken("a file accepted as both kinds");
  return 0;
}
