// A spin lock: in lock step (pre-Volta, and warpdiv's model) the lanes that lose the lock spin
// while the winner waits for them at the loop's exit, so the loop never ends. warpdiv names it.
// warpdiv analyze spin_lock.cu --grid 1 --block 32 --alloc lock=1 --alloc count=1
__global__ void spin_lock(int *lock, int *count) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *count = *count + 1;
  atomicExch(lock, 0);
}
