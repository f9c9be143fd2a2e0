// Model files and trainer checkpoints are torch archives, which the libFuzzer build (torch-free)
// cannot read: here they are mutated at random instead, a hundred times or more each (bytes
// flipped, cut at any length, junk spliced in). Every load either works or throws ModelError naming
// the file; nothing crashes, nothing else escapes.
#include <gtest/gtest.h>

#include <random>

#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/run_setup.h"
#include "train/trainer.h"

namespace pincer::testing {
namespace {

std::string mutate(const std::string& good, std::mt19937_64& rng) {
  std::string bytes = good;
  auto at = [&](size_t n) { return static_cast<size_t>(rng() % std::max<size_t>(1, n)); };
  switch (rng() % 4) {
    case 0:  // flip a few bytes
      for (int i = 0, n = 1 + int(rng() % 8); i < n; ++i) bytes[at(bytes.size())] ^= char(rng());
      break;
    case 1:  // cut
      bytes.resize(at(bytes.size()));
      break;
    case 2: {  // junk spliced in
      std::string junk(1 + at(64), '\0');
      for (char& c : junk) c = char(rng());
      bytes.insert(at(bytes.size()), junk);
      break;
    }
    default:  // a block of bytes overwritten with 0xff (sizes and offsets become huge)
      for (size_t i = at(bytes.size()), n = std::min(bytes.size(), i + 8); i < n; ++i) {
        bytes[i] = '\xff';
      }
  }
  return bytes;
}

TEST(DamagedFiles, MutatedModelFilesLoadOrAreModelErrors) {
  ScratchDir scratch("mutate-model");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  GamePtr game = load_game(cfg.rules());
  Model::create(*game, cfg.network(), "cpu", 1)->save(scratch / "good.pt");
  const std::string good = read_whole_file(scratch / "good.pt");
  std::mt19937_64 rng(11);
  int refused = 0;
  for (int i = 0; i < 150; ++i) {
    const std::string path = scratch / "m.pt";
    atomic_write_file(path, mutate(good, rng));
    try {
      Model::load(path, *game);
      Model::read_metadata(path);
    } catch (const ModelError& e) {
      ++refused;
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  EXPECT_GT(refused, 50);
}

TEST(DamagedFiles, MutatedCheckpointsLoadOrAreModelErrors) {
  ScratchDir scratch("mutate-ckpt");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  {
    Trainer t(game, cfg, dir);
    t.save_checkpoint();
  }
  const std::string good = read_whole_file(dir.checkpoint());
  std::mt19937_64 rng(12);
  int refused = 0;
  for (int i = 0; i < 100; ++i) {
    atomic_write_file(dir.checkpoint(), mutate(good, rng));
    try {
      Trainer t(game, cfg, dir);
    } catch (const ModelError& e) {
      ++refused;
      EXPECT_NE(std::string(e.what()).find(dir.checkpoint()), std::string::npos) << e.what();
    }
  }
  EXPECT_GT(refused, 30);
}

}  // namespace
}  // namespace pincer::testing
