// The stand-in for tiled_matmul.cu when nvcc is not found: every call reports "no GPU" (exit
// status 3), as kernels/no_cuda.cpp does for the rest of kernels/.
#include "kernels/lecture/tiled_matmul.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::kernels {

namespace {
[[noreturn]] void no_cuda() { throw NoDevice("warpdiv was built without CUDA (nvcc not found)"); }
}  // namespace

struct TiledMatmul::State {};

TiledMatmul::TiledMatmul(const MatmulShape&) { no_cuda(); }
TiledMatmul::~TiledMatmul() = default;
void TiledMatmul::upload(const std::vector<float>&, const std::vector<float>&) { no_cuda(); }
std::vector<float> TiledMatmul::run() { no_cuda(); }
std::vector<double> TiledMatmul::time(int) { no_cuda(); }
KernelResources TiledMatmul::resources() const { no_cuda(); }

}  // namespace warpdiv::kernels
