// A 3-D kernel with an early return: one thread per cell of an nx x ny x nz volume, blockDim
// (8, 8, 4); the threads past the volume's edge return at once. With 8 x 8 threads per z-slice a
// warp is four rows (y) of one slice (z), so only the x edge splits a warp; the y and z edges
// retire whole warps.
//
// Meant for: a 20 x 12 x 6 volume, blockDim (8, 8, 4), gridDim (3, 2, 2):
//   warpdiv analyze kernels/zoo/early_return_3d.cu \
//       --grid '(nx+7)/8,(ny+7)/8,(nz+3)/4' --block 8,8,4 --arg nx=20 --arg ny=12 --arg nz=6
__global__ void scale_volume(float *data, int nx, int ny, int nz)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  data[(z * ny + y) * nx + x] *= 2.0f;
}
