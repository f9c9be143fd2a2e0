// A network with its metadata: the residual tower of nn/network.h behind a torch-free interface,
// so that search, self-play and the CLI can hold and run models without including torch.
//
// Model file layout (format_version 1): the checked header of engine/checked_file.h (kind, length,
// XXH64), then one torch archive holding the network's parameters and buffers plus the key
// "pincer_metadata", a byte tensor with the serialized ModelMetadata. The file is written
// atomically; a human-readable copy of the metadata is written beside it as
// <stem>.meta.textproto (informational only: loading never reads it).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "engine/game.h"
#include "proto/model.pb.h"

namespace pincer {

// A model file that is missing, damaged, or made for another game, ruleset or encoding.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int kModelFormatVersion = 1;

// Arithmetic of inference. bfloat16 keeps float32's range with an 8-bit mantissa: outputs stay
// within about 1e-2 of float32 (tests/train/model_test.cpp) at several times the speed on CPUs
// with AVX-512 BF16 or AMX (docs/training.md, "Network speed").
enum class Precision { kFloat32, kBFloat16 };
// Whether this CPU has AVX-512 BF16 or AMX-BF16 instructions.
bool cpu_has_bf16();
// "auto" or "" (bfloat16 where cpu_has_bf16(), else float32), "float32", "bfloat16"; throws
// ModelError for anything else.
Precision parse_precision(const std::string& text);
bool valid_precision(const std::string& text);
const char* precision_name(Precision precision);
// The precision new models and inference services use: float32 in the library (exact, for
// tests); the CLI sets parse_precision("auto") at start (cli/torch/precision.cpp), and run
// configs choose theirs (inference.precision, default "auto").
Precision default_precision();
void set_default_precision(Precision precision);

// Fills unset architecture fields with their defaults; throws ModelError naming a bad field.
NetworkConfig complete_network_config(NetworkConfig config);

class Model {
 public:
  struct Impl;  // nn/network.h
  ~Model();

  // A fresh network for `game` with weights drawn from `seed`. `device`: "cpu", "cuda", "cuda:N".
  static std::unique_ptr<Model> create(const Game& game, const NetworkConfig& network,
                                       const std::string& device, uint64_t seed);
  // Loads a model file for `game`; refuses (ModelError naming both values) a model made under
  // another game, ruleset fingerprint, encoding version or action space.
  static std::unique_ptr<Model> load(const std::string& path, const Game& game,
                                     const std::string& device = "cpu");
  // A network with fresh weights shaped by `meta` (e.g. before loading a checkpoint into it).
  static std::unique_ptr<Model> from_metadata(const ModelMetadata& meta, const std::string& device);
  // Only the metadata of a model file.
  static ModelMetadata read_metadata(const std::string& path);
  // Throws ModelError (naming `origin`) unless the network config and input shape are in range:
  // run before a network is built from metadata read from a file.
  static void check_metadata(const ModelMetadata& meta, const std::string& origin);
  // Throws ModelError unless `meta` was made for `game` (`origin` names the file in the message).
  static void check_compatible(const ModelMetadata& meta, const Game& game,
                               const std::string& origin);
  // Where a model file's informational metadata copy goes.
  static std::string metadata_path(const std::string& path);

  // Writes the model file atomically (and its metadata copy).
  void save(const std::string& path) const;
  // A deep copy (weights and metadata) on `device` ("" = the same device).
  std::unique_ptr<Model> clone(const std::string& device = "") const;
  // The element-wise mean of the weights and batch-norm statistics of `models` (checkpoint
  // averaging, as in stochastic weight averaging), on the CPU, with the last model's metadata
  // under a new id ("<last id>+avg<N>", its parent the last model). Throws ModelError unless
  // every model has the same game, fingerprint, encoding, input shape, actions and network.
  static std::unique_ptr<Model> average(const std::vector<const Model*>& models);

  const ModelMetadata& metadata() const { return meta_; }
  ModelMetadata& metadata() { return meta_; }
  int input_size() const;
  int num_actions() const { return meta_.num_actions(); }
  std::string device() const;
  int64_t parameter_count() const;
  // Floating-point operations of one position's forward pass (a multiply-add counts 2;
  // convolutions and dense layers only; not the ownership head, which infer() skips), for
  // effective GFLOP/s.
  int64_t flops_per_position() const;

  // Runs the network in inference mode on `n` encoded positions (n * input_size() floats).
  // Writes n * num_actions() policy logits and n * 3 win/draw/loss probabilities, and with a
  // points head (and `points` not null) n predicted final points differences for the player to
  // move. Not thread-safe: one caller at a time (the inference service's thread).
  void infer(const float* input, int n, float* policy_logits, float* wdl, float* points = nullptr);
  bool has_points_head() const { return meta_.network().points_head(); }
  // The ownership head is trained but never run here: play pays nothing for it.
  bool has_ownership_head() const { return meta_.network().ownership_head(); }
  // Inference precision (default: default_precision()).
  void set_precision(Precision precision);
  Precision precision() const;

  Impl& impl() { return *impl_; }
  const Impl& impl() const { return *impl_; }

 private:
  Model(ModelMetadata meta, std::unique_ptr<Impl> impl);
  ModelMetadata meta_;
  std::unique_ptr<Impl> impl_;
};

// Sets torch's intra-op threads for the calling thread (and the default for threads that have not
// run torch yet). Each thread that runs torch should call it once, deliberately.
void set_torch_threads(int threads);
// torch's own description of its threading (OpenMP/MKL settings), for logs and benchmarks.
std::string torch_parallel_info();

// "2026-11-29T11:30:00Z" for now, and Unix milliseconds.
std::string utc_now_iso();
int64_t unix_ms_now();

}  // namespace pincer
