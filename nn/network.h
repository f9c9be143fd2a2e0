// The residual network itself (torch). Included only by nn/model.cpp and the trainer; everything
// else uses nn/model.h.
#pragma once

#include <torch/torch.h>

#include <mutex>
#include <vector>

#include "nn/model.h"

namespace pincer {

struct ResidualBlockImpl : torch::nn::Module {
  explicit ResidualBlockImpl(int channels);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
};
TORCH_MODULE(ResidualBlock);

struct NetOutput {
  torch::Tensor policy;     // [N, num_actions] logits
  torch::Tensor value;      // [N, 3] win/draw/loss logits for the player to move
  torch::Tensor points;     // [N] final points difference for the player to move; undefined
                            // without a points head
  torch::Tensor ownership;  // [N, H, W] in [-1, 1]: who holds each cell some plies later, for
                            // the player to move; undefined without an ownership head
};

// Input [N, C, H, W] -> policy logits, value logits and (with those heads) points and ownership.
// The policy head is dense (policy_fc) or convolutional (policy_out, whose planes are read out at
// policy_map: `policy_planes` in the metadata; nn/model.h).
struct ResidualNetImpl : torch::nn::Module {
  ResidualNetImpl(const NetworkConfig& config, int in_channels, int height, int width,
                  int num_actions, int policy_planes);
  NetOutput forward_all(torch::Tensor x);
  // forward_all for a training step in `precision`: bfloat16 on the CPU runs the convolutions
  // and dense layers in bfloat16 (torch's CPU autocast, with their gradients) while the weights,
  // the optimizer and the outputs stay float32; float32 (or another device) is forward_all.
  NetOutput forward_for_training(torch::Tensor x, Precision precision);
  // Policy and value only.
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x);
  bool conv_policy() const { return !policy_out.is_empty(); }

  torch::nn::Conv2d stem{nullptr};
  torch::nn::BatchNorm2d stem_bn{nullptr};
  torch::nn::Sequential tower{nullptr};
  torch::nn::Conv2d policy_conv{nullptr};
  torch::nn::BatchNorm2d policy_bn{nullptr};
  torch::nn::Linear policy_fc{nullptr};   // dense head
  torch::nn::Conv2d policy_out{nullptr};  // conv head
  torch::Tensor policy_map;               // conv head: [num_actions] int64 into planes * H * W
  torch::nn::Conv2d value_conv{nullptr};
  torch::nn::BatchNorm2d value_bn{nullptr};
  torch::nn::Linear value_fc1{nullptr}, value_fc2{nullptr};
  torch::nn::Linear points_fc{nullptr};       // optional
  torch::nn::Conv2d ownership_conv{nullptr};  // optional: tower -> 1 plane (tanh); training only
};
TORCH_MODULE(ResidualNet);

struct Model::Impl {
  ResidualNet net{nullptr};
  torch::Device device{torch::kCPU};
  Precision precision = default_precision();
  // Inference runs with each batch norm folded into the convolution before it (weights scaled,
  // a bias added; model.cpp), in the inference precision and channels-last, rebuilt whenever a
  // parameter or buffer or the precision changed since (torch's version counters only grow).
  std::mutex fold_mutex;
  std::vector<torch::Tensor> fold_weight, fold_bias;  // convolutions, then the dense layers
  int64_t fold_version = -1;
  Precision fold_precision = Precision::kFloat32;
};

// Byte strings (serialized protos) stored in torch archives as uint8 tensors.
torch::Tensor bytes_to_tensor(const std::string& bytes);
std::string tensor_to_bytes(const torch::Tensor& tensor);

// Throws ModelError (naming `origin`) unless a conv policy head's map (read from a file) indexes
// inside its policy planes.
void check_policy_map(ResidualNetImpl& net, const ModelMetadata& meta, const std::string& origin);

// Parses "cpu", "cuda", "cuda:N"; throws ModelError when the device is unknown or unavailable.
torch::Device parse_device(const std::string& text);

}  // namespace pincer
