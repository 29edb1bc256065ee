#!/usr/bin/env bash
# On the GPU machine, from a folder holding harness.cu, warp_shuffle_reduction.cu (the zoo's
# kernels as committed with this folder): builds the harness with nvcc's defaults for sm_90 and runs
# it once under Nsight Compute for the global request and sector counters (as ncu-check reads them).
#   usage: bash run.sh   (writes ncu.csv, ncu.err, build.txt and gpu.txt here)
set -u
nvcc -arch=sm_90 -O3 -I. -o h harness.cu > build.txt 2>&1
m=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
ncu --csv --metrics "$m" ./h > ncu.csv 2> ncu.err
echo "exit $?" >> ncu.err
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version; nvcc --version) > gpu.txt 2>&1
rm -f h
