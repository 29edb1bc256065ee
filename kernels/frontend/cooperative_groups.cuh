// warpdiv's <cooperative_groups.h> (and <cooperative_groups/reduce.h>, <cooperative_groups/scan.h>,
// <cooperative_groups/memcpy_async.h>): the groups' API as CUDA 13's header declares it, for Clang's
// syntax-only parse without the toolkit. Declarations only. The front-end models these by name and
// by this file (lower.cpp, "Cooperative groups"): a block's sync is a barrier; thread_rank, size,
// num_threads, meta_group_rank/size, group_index, thread_index, group_dim are computed from the
// launch built-ins; shuffles, votes and reductions are values the model does not know; a grid's
// sync is refused.
#pragma once

namespace cooperative_groups {

class thread_group {
 public:
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ void sync() const;
  __device__ unsigned int get_type() const;
};

class grid_group : public thread_group {
 public:
  __device__ bool is_valid() const;
  __device__ void sync() const;
  static __device__ unsigned long long size();
  static __device__ unsigned long long num_threads();
  static __device__ unsigned long long thread_rank();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
  static __device__ dim3 thread_index();
  static __device__ dim3 dim_blocks();
  static __device__ unsigned long long num_blocks();
  static __device__ dim3 block_index();
  static __device__ unsigned long long block_rank();
};
__device__ grid_group this_grid();

template <unsigned int MaxBlockSize>
struct block_tile_memory {
  char reserved[16];
};

class thread_block : public thread_group {
 public:
  static __device__ void sync();
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 group_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
};
__device__ thread_block this_thread_block();
template <unsigned int MaxBlockSize>
__device__ thread_block this_thread_block(block_tile_memory<MaxBlockSize>& scratch);

class coalesced_group : public thread_group {
 public:
  __device__ unsigned int num_threads() const;
  __device__ unsigned int size() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __device__ void sync() const;
  __device__ unsigned int get_mask() const;
  template <class T> __device__ T shfl(T var, int src_rank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, int delta) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
};
__device__ coalesced_group coalesced_threads();

template <unsigned int Size, class ParentT = void>
class thread_block_tile : public thread_group {
 public:
  __device__ thread_block_tile();
  template <class OtherParent>
  __device__ thread_block_tile(const thread_block_tile<Size, OtherParent>& other);
  static __device__ unsigned int thread_rank();
  static constexpr __device__ unsigned int num_threads() { return Size; }
  static constexpr __device__ unsigned int size() { return Size; }
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __device__ void sync() const;
  template <class T> __device__ T shfl(T var, int src_rank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int lane_mask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <class T> __device__ unsigned int match_any(T value) const;
  template <class T> __device__ unsigned int match_all(T value, int& predicate) const;
};

template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent);
__device__ thread_group tiled_partition(const thread_group& parent, unsigned int tile_size);
__device__ thread_group tiled_partition(const thread_block& parent, unsigned int tile_size);
__device__ coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tile_size);
template <class T> __device__ coalesced_group labeled_partition(const coalesced_group& parent, T label);
__device__ coalesced_group binary_partition(const coalesced_group& parent, bool predicate);
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size> binary_partition(const thread_block_tile<Size, ParentT>& parent,
                                                    bool predicate);

template <class Group> __device__ void sync(const Group& group);
template <class Group> __device__ unsigned long long thread_rank(const Group& group);
template <class Group> __device__ unsigned long long group_size(const Group& group);
template <class Group> __device__ unsigned long long num_threads(const Group& group);

// <cooperative_groups/reduce.h> and <cooperative_groups/scan.h>
template <class T> struct plus { __device__ T operator()(T a, T b) const; };
template <class T> struct less { __device__ T operator()(T a, T b) const; };
template <class T> struct greater { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const; };
template <class Group, class T, class Op> __device__ T reduce(const Group& group, T value, Op op);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group& group, T value, Op op);
template <class Group, class T> __device__ T inclusive_scan(const Group& group, T value);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group& group, T value, Op op);
template <class Group, class T> __device__ T exclusive_scan(const Group& group, T value);

// <cooperative_groups/memcpy_async.h>
template <class Group, class T>
__device__ void memcpy_async(const Group& group, T* destination, const T* source, size_t bytes);
template <class Group, class T, class Layout>
__device__ void memcpy_async(const Group& group, T* destination, const T* source, Layout layout);
template <class Group> __device__ void wait(const Group& group);
template <unsigned int Stages, class Group> __device__ void wait_prior(const Group& group);

}  // namespace cooperative_groups
