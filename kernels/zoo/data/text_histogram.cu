// Text histogram: how many letters of a text fall in each of the seven groups a-d, e-h, ...,
// y-z, one thread per character, counted with atomicAdd on global memory: the simple
// "histo_kernel" of Kirk & Hwu, "Programming Massively Parallel Processors" (4th ed., chapter 9,
// parallel histogram). Written as they write it.
//
// Whether a lane takes the inner if depends on its character (a lowercase letter or not), loaded
// from data: the model needs the text, `--data data=FILE.txt` (a .txt file gives a char buffer
// its bytes). The atomicAdd's address depends on the character too: counted by the replay, as
// gathers are. Kept out of kernels/zoo/ itself, whose kernels the zoo tests run on random
// launches without data.
//
// Meant for the sample of data/samples/text/ (made by tools/make-samples):
//   warpdiv analyze kernels/zoo/data/text_histogram.cu --grid '(length+127)/128' --block 128
//     --arg length=20000 --data data=data/samples/text/sample.txt --alloc histo=7
__global__ void histo_kernel(const char *data, unsigned int length, unsigned int *histo) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < length) {
    int alphabet_position = data[i] - 'a';
    if (alphabet_position >= 0 && alphabet_position < 26) {
      atomicAdd(&(histo[alphabet_position / 4]), 1);
    }
  }
}
