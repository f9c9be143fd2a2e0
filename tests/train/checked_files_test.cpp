// Model files and trainer checkpoints behind their checked header (engine/checked_file.h): a cut,
// bit-flipped, mistaken or wrong-game file is a ModelError that names the file and says what is
// wrong, before torch's archive reader sees a byte; files of older builds (bare torch archives)
// still load.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/atomic_file.h"
#include "engine/checked_file.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "nn/model_file.h"
#include "nn/network.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/run_setup.h"
#include "train/trainer.h"

namespace pincer::testing {
namespace {

NetworkConfig small_net() {
  NetworkConfig n;
  n.set_blocks(1);
  n.set_channels(8);
  return n;
}

// The ModelError of loading `path` (fails the test when it loads).
std::string load_error(const std::string& path, const Game& game) {
  try {
    Model::load(path, game);
  } catch (const ModelError& e) {
    return e.what();
  }
  ADD_FAILURE() << path << " loaded";
  return "";
}

std::string flip_bit(std::string bytes, size_t at) {
  bytes[at] = static_cast<char>(bytes[at] ^ 0x10);
  return bytes;
}

// The layout before checked files: the torch archive alone, written to `path`.
void save_bare_archive(const Model& model, const std::string& path) {
  torch::serialize::OutputArchive archive;
  model.impl().net->save(archive);
  archive.write("pincer_metadata", bytes_to_tensor(model.metadata().SerializeAsString()));
  archive.save_to(path);
}

// Both models give the same policy on the start position.
void expect_same_outputs(Model& a, Model& b, const Game& game) {
  std::vector<float> input(a.input_size());
  game.initial_state()->encode(input.data());
  std::vector<float> pa(a.num_actions()), pb(b.num_actions());
  float wdl_a[3], wdl_b[3];
  a.infer(input.data(), 1, pa.data(), wdl_a);
  b.infer(input.data(), 1, pb.data(), wdl_b);
  EXPECT_EQ(pa, pb);
}

TEST(CheckedFiles, CutModelFilesAreRefusedNamingTheFile) {
  ScratchDir dir("checked-cut");
  GamePtr game = make_tictactoe();
  Model::create(*game, small_net(), "cpu", 1)->save(dir / "m.pt");
  const std::string good = read_whole_file(dir / "m.pt");
  const std::string path = dir / "cut.pt";
  for (size_t n : {size_t{0}, size_t{5}, size_t{31}, size_t{32}, size_t{200}, good.size() / 2,
                   good.size() - 1}) {
    atomic_write_file(path, good.substr(0, n));
    const std::string error = load_error(path, *game);
    EXPECT_NE(error.find("model file " + path + " is cut short"), std::string::npos)
        << n << ": " << error;
    EXPECT_THROW(Model::read_metadata(path), ModelError);
  }
}

TEST(CheckedFiles, FlippedBitsInModelFilesAreRefusedAsDamaged) {
  ScratchDir dir("checked-flip");
  GamePtr game = make_tictactoe();
  Model::create(*game, small_net(), "cpu", 1)->save(dir / "m.pt");
  const std::string good = read_whole_file(dir / "m.pt");
  const std::string path = dir / "flipped.pt";
  for (size_t at = 40; at < good.size(); at += good.size() / 37) {
    atomic_write_file(path, flip_bit(good, at));
    EXPECT_EQ(load_error(path, *game), "model file " + path + " is damaged (checksum mismatch)")
        << "byte " << at;
  }
  atomic_write_file(path, flip_bit(good, 3));  // the magic
  EXPECT_NE(load_error(path, *game).find("is not a pincer model file"), std::string::npos);
}

TEST(CheckedFiles, WrongGameAndWrongKindAreNamed) {
  ScratchDir scratch("checked-kind");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  Trainer(game, cfg, dir).save_checkpoint();
  // A checkpoint where a model file belongs, and the other way round.
  const std::string model_path = scratch / "m.pt";
  atomic_copy_file(dir.checkpoint(), model_path);
  EXPECT_EQ(load_error(model_path, *game),
            "model file " + model_path + " is a trainer checkpoint, not a model file");
  Model::create(*game, cfg.network(), "cpu", 1)->save(model_path);
  atomic_copy_file(model_path, dir.checkpoint());
  try {
    Trainer t(game, cfg, dir);
    ADD_FAILURE() << "a model file loaded as a trainer checkpoint";
  } catch (const ModelError& e) {
    EXPECT_EQ(std::string(e.what()), "trainer checkpoint " + dir.checkpoint() +
                                         " is a model file, not a trainer checkpoint");
  }
  // A whole tic-tac-toe model offered to SE!ZE.
  const std::string error = load_error(model_path, *load_game("seize-reference"));
  EXPECT_NE(error.find("was made for game tictactoe"), std::string::npos) << error;
  EXPECT_NE(error.find(model_path), std::string::npos) << error;
}

TEST(CheckedFiles, CutAndFlippedCheckpointsAreRefusedNamingTheFile) {
  ScratchDir scratch("checked-ckpt");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  Trainer(game, cfg, dir).save_checkpoint();
  const std::string good = read_whole_file(dir.checkpoint());
  const std::pair<std::string, std::string> cases[] = {
      {good.substr(0, good.size() - 100), "is cut short"},
      {flip_bit(good, good.size() / 3), "is damaged (checksum mismatch)"},
      {good + "junk", "has bytes after its end"},
  };
  for (const auto& [bytes, why] : cases) {
    atomic_write_file(dir.checkpoint(), bytes);
    try {
      Trainer t(game, cfg, dir);
      ADD_FAILURE() << "a damaged checkpoint loaded (" << why << ")";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find("trainer checkpoint " + dir.checkpoint() + " " + why),
                std::string::npos)
          << e.what();
    }
  }
  atomic_write_file(dir.checkpoint(), good);
  EXPECT_NO_THROW(Trainer(game, cfg, dir));
}

TEST(CheckedFiles, BareTorchArchivesOfOlderBuildsStillLoad) {
  ScratchDir dir("checked-legacy");
  GamePtr game = make_tictactoe();
  auto model = Model::create(*game, small_net(), "cpu", 3);
  save_bare_archive(*model, dir / "old.pt");
  auto old = Model::load(dir / "old.pt", *game);
  EXPECT_EQ(old->metadata().SerializeAsString(), model->metadata().SerializeAsString());
  expect_same_outputs(*model, *old, *game);
  // Saved again, it has the header.
  old->save(dir / "new.pt");
  EXPECT_EQ(read_whole_file(dir / "new.pt").substr(1, 6), "PINCER");
}

TEST(CheckedFiles, ConvertingABareArchiveAddsTheHeaderAndKeepsEveryByte) {
  ScratchDir dir("checked-convert");
  GamePtr game = make_tictactoe();
  auto model = Model::create(*game, small_net(), "cpu", 4);
  save_bare_archive(*model, dir / "old.pt");
  const std::string old_bytes = read_whole_file(dir / "old.pt");
  EXPECT_EQ(convert_model_file(dir / "old.pt", dir / "new.pt", *game), ConvertResult::converted);
  EXPECT_EQ(read_whole_file(dir / "old.pt"), old_bytes);
  const std::string converted = read_whole_file(dir / "new.pt");
  EXPECT_EQ(converted, wrap_checked(old_bytes, CheckedKind::model));
  const Unwrapped file = unwrap_checked(converted, CheckedKind::model);
  EXPECT_TRUE(file.ok && !file.legacy) << file.error;
  auto loaded = Model::load(dir / "new.pt", *game);
  EXPECT_EQ(loaded->metadata().SerializeAsString(), model->metadata().SerializeAsString());
  expect_same_outputs(*model, *loaded, *game);
  // The metadata copy is the one Model::save writes.
  model->save(dir / "saved.pt");
  std::string meta = read_whole_file(Model::metadata_path(dir / "new.pt"));
  std::string saved_meta = read_whole_file(Model::metadata_path(dir / "saved.pt"));
  EXPECT_EQ(meta.substr(meta.find('\n')), saved_meta.substr(saved_meta.find('\n')));
  // In place, and again: the second time there is nothing to do.
  EXPECT_EQ(convert_model_file(dir / "old.pt", dir / "old.pt", *game), ConvertResult::converted);
  EXPECT_EQ(read_whole_file(dir / "old.pt"), converted);
  EXPECT_EQ(convert_model_file(dir / "old.pt", dir / "old.pt", *game),
            ConvertResult::already_checked);
  EXPECT_EQ(read_whole_file(dir / "old.pt"), converted);
}

TEST(CheckedFiles, ConvertRefusesDamagedAndWrongFilesAndWritesNothing) {
  ScratchDir dir("checked-convert-bad");
  GamePtr game = make_tictactoe();
  auto model = Model::create(*game, small_net(), "cpu", 5);
  save_bare_archive(*model, dir / "old.pt");
  const std::string good = read_whole_file(dir / "old.pt");
  const std::string in = dir / "in.pt", out = dir / "out.pt";
  std::vector<std::string> bad = {"", "not a model", good.substr(0, good.size() / 2),
                                  good.substr(0, good.size() - 1)};
  // Bits flipped inside the archive: in a tensor's bytes (the middle of the file) and in the
  // zip's directory at the end.
  for (size_t at : {good.size() / 3, good.size() / 2, good.size() - 30}) {
    bad.push_back(flip_bit(good, at));
  }
  for (size_t i = 0; i < bad.size(); ++i) {
    atomic_write_file(in, bad[i]);
    try {
      convert_model_file(in, out, *game);
      ADD_FAILURE() << "damaged file " << i << " converted";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(in), std::string::npos) << i << ": " << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(out)) << i;
    EXPECT_FALSE(std::filesystem::exists(Model::metadata_path(out))) << i;
    // In place, the damaged file stays as it was.
    EXPECT_THROW(convert_model_file(in, in, *game), ModelError) << i;
    EXPECT_EQ(read_whole_file(in), bad[i]) << i;
  }
  // A model of another game is refused too.
  EXPECT_THROW(convert_model_file(dir / "old.pt", out, *load_game("seize-reference")), ModelError);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_THROW(convert_model_file(dir / "missing.pt", out, *game), ModelError);
}

}  // namespace
}  // namespace pincer::testing
