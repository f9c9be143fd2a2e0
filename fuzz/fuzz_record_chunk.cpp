// Record chunks as the trainer reads them: never crash, never allocate what a header claims
// beyond the cap; every record the window accepts has policy targets inside the action space.
// An input starting with 'R' is an uncompressed chunk (so that mutations reach the protobuf and
// the records), anything else the compressed file itself.
#include <string>

#include "fuzz/fuzz_common.h"
#include "store/records.h"
#include "train/window.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  const Game& game = fuzz::game(0);
  std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    if (!bytes.empty() && bytes[0] == 'R') bytes = zstd_compress(bytes.substr(1), 1);
    const RecordChunk chunk = parse_record_chunk(bytes, "fuzz.chunk", game);
    Window window(64);
    for (const GameRecord& record : chunk.games()) {
      const size_t before = window.size();
      try {
        const int added = window.add_game(game, record);
        if (added != record.moves_size()) fuzz::broken("window added another number of positions");
      } catch (const RecordError&) {
        if (window.size() != before) fuzz::broken("a refused record changed the window");
      }
      for (size_t i = 0; i < window.size(); ++i) {
        for (int index : window[i].policy_index) {
          if (index < 0 || index >= game.num_actions()) fuzz::broken("policy index out of range");
        }
      }
    }
  } catch (const RecordError&) {
  }
  return 0;
}
