#include <cstdio>
#define K(N,E) __global__ void N(int*o){int t=threadIdx.x;float a=0.1f*(t+1);float x=(float)(t+1);float y=E;if(y!=0.0f)o[t]=1;}
K(b1,x-a*10.0f)K(b2,-(a*10.0f)+x)K(b3,a*10.0f*1.0f-x)K(b4,-x+a*10.0f)K(b5,(-x)-(-(a*10.0f)))K(b6,a*10.0f-x)K(b7,fabsf(a*10.0f)-x)K(b8,x+-(a*10.0f))
__global__ void b9(int*o){int t=threadIdx.x;float a=0.1f*(t+1);float x=(float)(t+1);float p=a*10.0f;float y=p-x;float z=p-2.0f*x;if(y!=0.0f)o[t]=1;o[64+t]=(int)z;}
__global__ void b10(int*o){int t=threadIdx.x;double e=0.1*(t+1);double y=-(e*10.0)+(t+1);if(y!=0.0)o[t]=1;}
int main(){int*o,h[128];cudaMalloc(&o,512);
#define L(N) cudaMemset(o,0,512);N<<<1,64>>>(o);cudaMemcpy(h,o,512,cudaMemcpyDeviceToHost);{int c=0;for(int i=0;i<64;i++)c+=h[i];printf(#N " taken %d\n",c);}
L(b1)L(b2)L(b3)L(b4)L(b5)L(b6)L(b7)L(b8)L(b9)L(b10)return 0;}
