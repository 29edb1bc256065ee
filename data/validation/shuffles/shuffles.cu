#include <cstdio>
__device__ unsigned A[16];
__global__ void k(int*o,int n){int l=threadIdx.x,c=0;for(int a=0;a<n;++a){unsigned g=A[a];
#define W(w) o[(c++)*32+l]=__shfl_sync(~0u,l,(int)g,w);o[(c++)*32+l]=__shfl_up_sync(~0u,l,g,w);o[(c++)*32+l]=__shfl_down_sync(~0u,l,g,w);o[(c++)*32+l]=__shfl_xor_sync(~0u,l,(int)g,w);
W(1)W(2)W(4)W(8)W(16)W(32)}}
int main(){unsigned a[]={0,1,2,3,5,7,15,16,17,31,32,33,63,64,0x80000000u,0xFFFFFFFFu};cudaMemcpyToSymbol(A,a,64);
int*d;cudaMalloc(&d,384*128);k<<<1,32>>>(d,16);static int h[384*32];
if(cudaMemcpy(h,d,384*128,cudaMemcpyDeviceToHost))return 1;const char*K[]={"shfl","up","down","xor"};int c=0;
for(int x=0;x<16;++x)for(int w=1;w<=32;w*=2)for(int j=0;j<4;++j,++c){printf("%s %d %u:",K[j],w,a[x]);for(int l=0;l<32;++l)printf(" %d",h[c*32+l]);puts("");}}
