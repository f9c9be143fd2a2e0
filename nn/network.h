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

// Input [N, C, H, W] -> policy logits [N, num_actions] and value logits [N, 3] (win, draw, loss
// for the player to move).
struct ResidualNetImpl : torch::nn::Module {
  ResidualNetImpl(const NetworkConfig& config, int in_channels, int height, int width,
                  int num_actions);
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x);

  torch::nn::Conv2d stem{nullptr};
  torch::nn::BatchNorm2d stem_bn{nullptr};
  torch::nn::Sequential tower{nullptr};
  torch::nn::Conv2d policy_conv{nullptr};
  torch::nn::BatchNorm2d policy_bn{nullptr};
  torch::nn::Linear policy_fc{nullptr};
  torch::nn::Conv2d value_conv{nullptr};
  torch::nn::BatchNorm2d value_bn{nullptr};
  torch::nn::Linear value_fc1{nullptr}, value_fc2{nullptr};
};
TORCH_MODULE(ResidualNet);

struct Model::Impl {
  ResidualNet net{nullptr};
  torch::Device device{torch::kCPU};
  // Inference runs with each batch norm folded into the convolution before it (weights scaled,
  // a bias added; model.cpp), rebuilt whenever a parameter or buffer changed since (torch's
  // version counters only grow).
  std::mutex fold_mutex;
  std::vector<torch::Tensor> fold_weight, fold_bias;
  int64_t fold_version = -1;
};

// Byte strings (serialized protos) stored in torch archives as uint8 tensors.
torch::Tensor bytes_to_tensor(const std::string& bytes);
std::string tensor_to_bytes(const torch::Tensor& tensor);

// Parses "cpu", "cuda", "cuda:N"; throws ModelError when the device is unknown or unavailable.
torch::Device parse_device(const std::string& text);

}  // namespace pincer
