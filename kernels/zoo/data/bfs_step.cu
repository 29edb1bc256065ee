// One level of breadth-first search over a graph in CSR form (node u's neighbours are
// col_idx[row_ptr[u] .. row_ptr[u+1]-1]), one thread per node, level-synchronous: the nodes at
// `depth` (level[u] == depth) look at their neighbours and mark those not reached yet
// (level[v] == -1) as depth + 1 in next_level. `level` is only read, so every branch is decided
// by data the launch gives (--data); several frontier nodes may mark one neighbour, always with
// the same value.
//
// Both the frontier test and the loop's trip count (a node's degree) differ by lane. Meant for the
// graph of data/samples/spmv (its CSR arrays) and the levels of data/samples/bfs (made by
// tools/make-samples):
//   warpdiv analyze kernels/zoo/data/bfs_step.cu --grid '(num_nodes+127)/128' --block 128
//     --arg num_nodes=2000 --arg depth=2 --data row_ptr=data/samples/spmv/row_ptr.npy
//     --data col_idx=data/samples/spmv/col_idx.npy --data level=data/samples/bfs/level2.npy
//     --alloc next_level=2000
__global__ void bfs_step(int num_nodes, const int *row_ptr, const int *col_idx, const int *level,
                         int depth, int *next_level) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u < num_nodes && level[u] == depth) {
    for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
      int v = col_idx[e];
      if (level[v] == -1) next_level[v] = depth + 1;
    }
  }
}
