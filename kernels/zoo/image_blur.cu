// The lecture's image blur (GPU Teaching Kit, "Image blur as a 2D kernel"): each thread averages
// the (2*BLUR_SIZE+1) x (2*BLUR_SIZE+1) box around its pixel, skipping pixels outside the image.
//
// Meant for: a 40 x 20 image (w = 40, h = 20), blockDim (16, 16), gridDim (3, 2):
//   warpdiv analyze kernels/zoo/image_blur.cu --grid '(w-1)/16+1,(h-1)/16+1' --block 16,16 \
//       --arg w=40 --arg h=20
// Written as the slide writes it.
#define BLUR_SIZE 1

__global__
void blurKernel(unsigned char * in, unsigned char * out, int w, int h) {
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  int Row = blockIdx.y * blockDim.y + threadIdx.y;

  if (Col < w && Row < h) {
    int pixVal = 0;
    int pixels = 0;

    // Get the average of the surrounding 2xBLUR_SIZE x 2xBLUR_SIZE box
    for(int blurRow = -BLUR_SIZE; blurRow < BLUR_SIZE+1; ++blurRow) {
      for(int blurCol = -BLUR_SIZE; blurCol < BLUR_SIZE+1; ++blurCol) {

        int curRow = Row + blurRow;
        int curCol = Col + blurCol;
        // Verify we have a valid image pixel
        if(curRow > -1 && curRow < h && curCol > -1 && curCol < w) {
          pixVal += in[curRow * w + curCol];
          pixels++; // Keep track of number of pixels in the accumulated total
        }
      }
    }

    // Write our new pixel value out
    out[Row * w + Col] = (unsigned char)(pixVal / pixels);
  }
}
