__constant__ int CONE=1;const int ONE=1;
#define K(N,E) __global__ void N(int*o,int inc,int n){__shared__ int s[64];int t=threadIdx.x;s[t]=0;__syncthreads();E;__syncthreads();o[t]=s[t];}
K(a1,atomicAdd(&s[t%4],inc))K(a2,atomicAdd(&s[t%4],(t&0)+1))K(a3,atomicSub(&s[t%4],-1))K(a4,atomicAdd(&s[t%4],n>100?1:1))
K(a5,atomicAdd(&s[t%4],(int)(1.0f)))K(a6,atomicAdd(&s[t%4],1+0*n))K(a7,atomicAdd(&s[t%4],n/n))K(a8,int d=1;atomicAdd(&s[t%4],d);d=2;o[t]=d)
K(a9,atomicAdd(&s[t%4],1))K(a10,atomicAdd(&s[t%4],t/64+1))K(a11,atomicAdd(&s[t%4],sizeof(char)))K(a12,atomicAdd(&s[t%4],ONE))
K(a13,atomicAdd(&s[t%4],CONE))K(a14,atomicSub(&s[t%4],1))K(a15,atomicAdd(&s[t%4],1*inc))K(a16,atomicAdd(&s[t%4],(short)1))
int main(){int*o;cudaMalloc(&o,4096);
#define L(N) N<<<1,32>>>(o,1,1);
L(a1)L(a2)L(a3)L(a4)L(a5)L(a6)L(a7)L(a8)L(a9)L(a10)L(a11)L(a12)L(a13)L(a14)L(a15)L(a16)
cudaDeviceSynchronize();return 0;}
