// Escape times of the Mandelbrot set: one thread per pixel of a width x height image of the
// complex plane, pixel (px, py) at c = (x0 + px*dx, y0 + py*dy). Each thread iterates
// z = z*z + c from z = 0 until |z|^2 > 4 or max_iter iterations, and writes how many it ran.
//
// The loop's trip count differs from pixel to pixel through floating-point arithmetic only (no
// data): the model computes it in IEEE binary32 as the GPU does, with the multiplies nvcc
// contracts into FMAs (cx, cy and the new y; not x*x and y*y, which the condition and the new x
// share). Meant for launches such as the whole set at 256 x 256:
//   warpdiv analyze kernels/zoo/data/mandelbrot.cu --grid 16,16 --block 16,16 --arg width=256
//     --arg height=256 --arg x0=-2 --arg y0=-1.5 --arg dx=0.01171875 --arg dy=0.01171875
//     --arg max_iter=256
__global__ void mandelbrot(int *out, int width, int height, float x0, float y0, float dx, float dy,
                           int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float cx = x0 + px * dx;
  float cy = y0 + py * dy;
  float x = 0.0f, y = 0.0f;
  int iter = 0;
  while (iter < max_iter && x * x + y * y <= 4.0f) {
    float xt = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = xt;
    ++iter;
  }
  out[py * width + px] = iter;
}
