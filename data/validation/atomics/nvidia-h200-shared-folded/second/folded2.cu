#define K(N,E) __global__ void N(int*o,int n){__shared__ int s[64];int t=threadIdx.x;s[t]=0;__syncthreads();E;__syncthreads();o[t]=s[t];}
K(a1,atomicAdd(&s[t%4],1))K(a2,atomicInc((unsigned*)&s[t%4],0xffffffffu))K(a3,atomicOr(&s[t%4],1))K(a4,atomicAdd(&s[t%4],sizeof(int)/4))
K(a5,atomicAdd(&s[t%4],true))K(a6,atomicAdd(&s[t%4],n-n+1))K(a7,int d=1;if(n>0){atomicAdd(&s[t%4],d);})K(a8,atomicAdd(&s[t%4],t-t+1))
K(a9,int old=atomicAdd(&s[t%4],1);(void)old)K(a10,atomicSub(&s[t%4],~0))K(a11,atomicAdd(&s[t%4],'b'-'a'))K(a12,atomicAdd(&s[0],1))
int main(){int*o;cudaMalloc(&o,4096);
#define L(N) N<<<1,32>>>(o,1);
L(a1)L(a2)L(a3)L(a4)L(a5)L(a6)L(a7)L(a8)L(a9)L(a10)L(a11)L(a12)cudaDeviceSynchronize();return 0;}
