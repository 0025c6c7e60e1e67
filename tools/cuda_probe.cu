// configure's probe: compiles with the toolkit and, where a GPU is visible, must run one
// kernel and read its result back before the CUDA backend is enabled.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void writeAnswer(int* out) { *out = 42; }

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no-device\n");
    return 2;
  }
  int* d = nullptr;
  int h = 0;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess) return 1;
  writeAnswer<<<1, 1>>>(d);
  if (cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  cudaFree(d);
  std::printf("%s\n", h == 42 ? "ok" : "wrong");
  return h == 42 ? 0 : 1;
}
