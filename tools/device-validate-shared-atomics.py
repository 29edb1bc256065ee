#!/usr/bin/env python3
"""Shared-memory atomics whose lanes share words or banks, for the GPU: writes one .cu of many
small kernels (each one warp-level atomic statement on a __shared__ int array, launched once from
main()) and a table of what each is.

  usage: device-validate-shared-atomics.py OUT.cu OUT-kernels.csv

Each kernel zeroes `__shared__ T s[1024]`, then runs `if (COND) [res[t] =] ATOMIC(&s[INDEX],
OPERAND);` with t = threadIdx.x in one block of BLOCK threads, and writes s back. Fixed cases
separate the candidate rules (lanes on one word, words of one bank, both); random ones (seed 7)
mix them. Columns: kernel, type, op, used, condition, index, operand, block.
"""
import random
import sys

OPS = {
    'atomicAdd': '{f}({p}, {v})', 'atomicSub': '{f}({p}, {v})', 'atomicMax': '{f}({p}, {v})',
    'atomicMin': '{f}({p}, {v})', 'atomicOr': '{f}({p}, {v})', 'atomicAnd': '{f}({p}, {v})',
    'atomicXor': '{f}({p}, {v})', 'atomicExch': '{f}({p}, {v})', 'atomicCAS': '{f}({p}, {w}, {v})',
    'atomicInc': '{f}({p}, {v})',
}


def operand(ty, kind):
    if kind == 'const':
        return {'int': '1', 'unsigned int': '1u', 'float': '1.0f', 'unsigned long long': '1ull'}[ty]
    if kind == 'two':
        return f'({ty})2'
    return f'({ty})(in[t] + 1)'


def kernel(name, row):
    ty = row['type']
    v = '100u' if row['op'] == 'atomicInc' else operand(ty, row['operand'])
    call = OPS[row['op']].format(f=row['op'], p=f"&s[{row['index']}]", v=v, w=f'({ty})0')
    stmt = f'res[t] = (int){call};' if row['used'] else f'{call};'
    return (f"__global__ void {name}(int *o, int *res, const int *in) {{\n"
            f"  __shared__ {ty} s[1024];\n"
            f"  int t = threadIdx.x;\n"
            f"  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;\n"
            f"  __syncthreads();\n"
            f"  if ({row['cond']}) {stmt}\n"
            f"  __syncthreads();\n"
            f"  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];\n"
            f"}}\n")


def cases():
    rows = []

    def add(op, ty, used, cond, index, kind='lane', block=32):
        rows.append(dict(op=op, type=ty, used=used, cond=cond, index=index, operand=kind, block=block))

    # lanes on one word / words of one bank / both
    patterns = [('true', 't % 16'), ('true', 't % 8'), ('true', 't % 4'), ('true', 't / 2'), ('true', '5'),
                ('true', '(t % 2) * 32'), ('true', '(t % 4) * 32'), ('true', '(t % 8) * 32'),
                ('true', '(t % 2) * 32 + t / 16'), ('true', 't * 32'), ('true', '(t * 32) % 256'),
                ('true', 't'), ('true', '(t % 4) * 33'), ('true', '(t / 8) * 32 + t % 2'),
                ('t < 16', '(t % 2) * 64'), ('t % 3 == 0', 't / 6'), ('true', '(t % 3) * 32 + (t % 5)'),
                ('true', '(t % 5) * 32'), ('true', 't % 5'), ('true', '(t * 7) % 3')]
    for cond, index in patterns:
        for used in (False, True):
            add('atomicAdd', 'int', used, cond, index)
        add('atomicAdd', 'int', False, cond, index, 'const')
        add('atomicMax', 'int', False, cond, index)
        add('atomicExch', 'unsigned int', False, cond, index)
        add('atomicCAS', 'unsigned int', True, cond, index)
    for op in ('atomicSub', 'atomicMin', 'atomicOr', 'atomicAnd', 'atomicXor', 'atomicInc'):
        for cond, index in [('true', 't % 4'), ('true', '(t % 4) * 32'), ('true', 't')]:
            add(op, 'unsigned int', False, cond, index, 'const' if op == 'atomicInc' else 'lane')
    for ty in ('float', 'unsigned long long'):
        for cond, index in [('true', 't'), ('true', 't % 4'), ('true', '(t * 3) % 64')]:
            add('atomicAdd', ty, False, cond, index)
    # constant operands: an increment by 1 whose result is used, by 2, a decrement by 1
    for cond, index in [('true', 't % 4'), ('true', '(t % 4) * 32'), ('true', 't'), ('true', '5'),
                        ('t % 3 == 0', 't / 6')]:
        add('atomicAdd', 'int', True, cond, index, 'const')
        add('atomicAdd', 'unsigned int', False, cond, index, 'const')
        add('atomicAdd', 'int', False, cond, index, 'two')
        add('atomicSub', 'int', False, cond, index, 'const')
        add('atomicSub', 'int', True, cond, index, 'const')
    for block in (64, 50):
        for cond, index in [('true', 't % 16'), ('true', '(t % 4) * 32')]:
            add('atomicAdd', 'int', False, cond, index, block=block)
    r = random.Random(7)
    for _ in range(60):
        op = r.choice(['atomicAdd'] * 3 + ['atomicMax', 'atomicExch', 'atomicOr', 'atomicMin'])
        cond = r.choice(['true', f't % {r.randint(2, 6)} == {r.randint(0, 1)}', f't < {r.randint(1, 31)}',
                         f'(t & {r.randint(1, 31)}) != 0'])
        index = r.choice([f'({r.randint(0, 9)} * t + {r.randint(0, 60)}) % {r.randint(1, 300)}',
                          f't / {r.randint(1, 9)}', f'(t * {r.randint(1, 33)}) % 700',
                          f'(t % {r.randint(1, 16)}) * {r.randint(1, 40)}'])
        add(op, r.choice(['int', 'unsigned int']), r.choice([False, True]), cond, index,
            r.choice(['lane', 'lane', 'const']))
    return rows


def main():
    cu, table = sys.argv[1], sys.argv[2]
    rows = cases()
    with open(cu, 'w') as f:
        f.write('#include <cstdio>\n')
        for i, row in enumerate(rows):
            f.write(kernel(f'k{i:03d}', row))
        f.write('int main() {\n  int *o, *res, *in;\n  cudaMalloc(&o, 4096); cudaMalloc(&res, 4096);'
                ' cudaMalloc(&in, 4096);\n  cudaMemset(in, 0, 4096);\n')
        for i, row in enumerate(rows):
            f.write(f"  k{i:03d}<<<1, {row['block']}>>>(o, res, in);\n")
        f.write('  cudaDeviceSynchronize();\n  printf("%s\\n", cudaGetErrorString(cudaGetLastError()));\n}\n')
    with open(table, 'w') as f:
        f.write('kernel,type,op,used,condition,index,operand,block\n')
        for i, row in enumerate(rows):
            f.write(f"k{i:03d},{row['type']},{row['op']},{int(row['used'])},\"{row['cond']}\","
                    f"\"{row['index']}\",{row['operand']},{row['block']}\n")


main()
