// Placeholder translation unit until the CUDA kernels land (issue 5).
namespace warpdiv::kernels {}
