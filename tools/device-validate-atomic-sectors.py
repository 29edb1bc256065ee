#!/usr/bin/env python3
"""Global atomics whose lanes share addresses, for the GPU: writes one .cu of many small kernels
(each one warp-level atomic statement, launched once from main()) and a table of what each is.

  usage: device-validate-atomic-sectors.py OUT.cu OUT-kernels.csv

Each kernel is `if (COND) [res[t] =] ATOMIC(&out[INDEX], OPERAND...);` with t the thread's linear
index in its block (2-D blocks: threadIdx.y * blockDim.x + threadIdx.x), launched as <<<1, BLOCK>>>
on zeroed buffers. Fixed cases cover the patterns by name (one address, t / k, modular indices,
addresses in 1, 2 and 4 sectors, partial warps, 2-D blocks, all lanes distinct); random ones
(seed 6) mix them. The kernel table's columns: kernel, type, op, used (the returned value stored:
ATOM; else RED where the GPU has one), condition, index, operand, block, thread (t's definition).
"""
import random
import sys

VALUES = {'int': '1', 'unsigned int': '1u', 'float': '1.0f', 'double': '1.0',
          'unsigned long long': '1ull', 'long long': '1ll'}
# op -> the types it takes and the call (p: the address, v: an operand, w: a second operand)
OPS = {
    'atomicAdd': (['int', 'unsigned int', 'float', 'double', 'unsigned long long'], '{f}({p}, {v})'),
    'atomicSub': (['int', 'unsigned int'], '{f}({p}, {v})'),
    'atomicMax': (['int', 'unsigned int', 'unsigned long long', 'long long'], '{f}({p}, {v})'),
    'atomicMin': (['int', 'unsigned int'], '{f}({p}, {v})'),
    'atomicOr': (['int', 'unsigned int'], '{f}({p}, {v})'),
    'atomicAnd': (['int', 'unsigned int'], '{f}({p}, {v})'),
    'atomicXor': (['unsigned int'], '{f}({p}, {v})'),
    'atomicExch': (['int', 'unsigned int', 'float', 'unsigned long long'], '{f}({p}, {v})'),
    'atomicCAS': (['int', 'unsigned int', 'unsigned long long'], '{f}({p}, {w}, {v})'),
    'atomicInc': (['unsigned int'], '{f}({p}, {v})'),
}


LINEAR = 'threadIdx.y * blockDim.x + threadIdx.x'


def operand(ty, kind):
    """A constant operand, or one that differs by lane."""
    if kind == 'const':
        return VALUES[ty]
    return f'({ty})(t + 1)'


def call(op, ty, index, kind):
    fmt = OPS[op][1]
    v = '100u' if op == 'atomicInc' else operand(ty, kind)
    return fmt.format(f=op, p=f'&out[{index}]', v=v, w=f'({ty})0')


class Cases:
    def __init__(self):
        self.rows = []

    def add(self, op, ty, used, cond, index, kind='const', block='32', thread=LINEAR):
        self.rows.append(dict(op=op, type=ty, used=used, cond=cond, index=index, operand=kind,
                              block=block, thread=thread))


def fixed(c):
    """The named patterns, each RED (result unused) and ATOM (result used)."""
    patterns = [('true', '956'), ('t < 19', '214'), ('t % 8 == 0', '430'), ('t % 7 == 0', '9'),
                ('true', 't / 2'), ('true', 't / 3'), ('true', 't / 4'), ('true', 't / 8'),
                ('true', 't / 16'), ('t < 30', 't / 8'), ('true', 't % 2'), ('true', 't % 4'),
                ('true', '(t % 4) * 8'), ('true', '(t % 2) * 8'), ('true', '(t % 8) * 4'),
                ('t % 6 == 0', '(t % 10) * 3'), ('true', 't'), ('true', 't * 8'),
                ('true', '(t * 31) % 700'), ('t >= 24', 't / 2'), ('(t & 5) != 0', '40 + t / 5')]
    for cond, index in patterns:
        for used in (False, True):
            c.add('atomicAdd', 'int', used, cond, index)
            c.add('atomicAdd', 'float', used, cond, index)
    for ty in ('double', 'unsigned long long'):
        for cond, index in [('true', '956'), ('t % 8 == 0', '430'), ('t % 7 == 0', '9'),
                            ('true', 't / 3'), ('true', 't % 4'), ('true', '(t % 4) * 4')]:
            for used in (False, True):
                c.add('atomicAdd', ty, used, cond, index)
    # a uniform address with an operand that differs by lane (no aggregation by a constant)
    for ty in ('int', 'float', 'unsigned long long'):
        c.add('atomicAdd', ty, False, 'true', '77', 'lane')
        c.add('atomicAdd', ty, True, 'true', '77', 'lane')
    for op in ('atomicMax', 'atomicMin', 'atomicOr', 'atomicAnd', 'atomicSub', 'atomicXor',
               'atomicExch', 'atomicCAS', 'atomicInc'):
        ty = 'unsigned int'
        for cond, index in [('true', '5'), ('true', 't / 4'), ('true', 't'), ('t < 12', '(t % 3) * 8')]:
            for used in (False, True):
                c.add(op, ty, used, cond, index, 'lane' if op != 'atomicInc' else 'const')
    for op, ty in [('atomicCAS', 'unsigned long long'), ('atomicExch', 'float'),
                   ('atomicMax', 'long long'), ('atomicExch', 'unsigned long long')]:
        for cond, index in [('true', '5'), ('true', 't / 4'), ('true', 't')]:
            c.add(op, ty, True, cond, index, 'lane')
    # partial warps and 2-D blocks
    for block in ('20', '45', '70', 'dim3(8, 4)', 'dim3(5, 7)', 'dim3(12, 3)', 'dim3(3, 11)'):
        for cond, index in [('true', '11'), ('true', 't / 3'), ('true', 'threadIdx.y'),
                            ('true', 'threadIdx.x % 4')]:
            if cond == 'true' and index.startswith('threadIdx') and not block.startswith('dim3'):
                continue
            c.add('atomicAdd', 'int', False, cond, index, block=block)
            c.add('atomicAdd', 'float', True, cond, index, block=block)


def random_cases(c, seed, n):
    r = random.Random(seed)
    for _ in range(n):
        op = r.choice(['atomicAdd'] * 4 + list(OPS))
        ty = r.choice(OPS[op][0])
        cond = r.choice(['true', f't % {r.randint(2, 8)} == {r.randint(0, 1)}', f't < {r.randint(1, 31)}',
                         f't >= {r.randint(1, 31)}', f'(t & {r.randint(1, 31)}) != 0'])
        index = r.choice([f'({r.randint(0, 9)} * t + {r.randint(0, 60)}) % {r.randint(1, 300)}',
                          f't / {r.randint(1, 9)}', f'(t * {r.randint(1, 33)}) % 700',
                          f'{r.randint(0, 999)}', f'(t % {r.randint(1, 16)}) * {r.randint(1, 9)}'])
        block = r.choice(['32', '32', '64', '50', 'dim3(8, 4)', 'dim3(6, 9)'])
        kind = 'const' if op == 'atomicInc' else r.choice(['const', 'lane'])
        c.add(op, ty, r.choice([False, True]) or op in ('atomicExch', 'atomicCAS'), cond, index, kind, block)


def threadidx_x(c):
    """`int t = threadIdx.x;` (a black-box tester's kernels: `t % 7 == 0` with an unsigned long long
    atomicAdd of 1 on one address was not aggregated by nvcc there, `t % 8 == 0` was)."""
    for ty in ('unsigned long long', 'int'):
        for cond in ('t % 7 == 0', 't % 8 == 0', 't < 19', 'true'):
            c.add('atomicAdd', ty, False, cond, '9' if cond == 't % 7 == 0' else '430', thread='threadIdx.x')


def kernel_text(name, row):
    ty = row['type']
    body = call(row['op'], ty, row['index'], row['operand'])
    if row['used']:
        body = f'res[t] = {body}'
    return (f'__global__ void {name}({ty} *out, {ty} *res) {{\n'
            f'  int t = {row["thread"]};\n'
            f'  if ({row["cond"]}) {body};\n}}')


def main():
    c = Cases()
    fixed(c)
    random_cases(c, 6, 60)
    threadidx_x(c)
    kernels, launches, table = [], [], ['kernel,type,op,used,condition,index,operand,block,thread']
    for n, row in enumerate(c.rows):
        name = f'a{n}'
        kernels.append(kernel_text(name, row))
        ty = row['type']
        launches.append(f'  {name}<<<1, {row["block"]}>>>(({ty} *)out, ({ty} *)res);')
        table.append(f'{name},{ty},{row["op"]},{int(row["used"])},"{row["cond"]}","{row["index"]}",'
                     f'{row["operand"]},"{row["block"]}","{row["thread"]}"')
    src = ('// Made by tools/device-validate-atomic-sectors.py: one global atomic statement per kernel.\n'
           + '\n'.join(kernels)
           + '\n#ifndef __WARPDIV__\nint main() {\n  void *out, *res;\n'
           '  cudaMalloc(&out, 65536);\n  cudaMalloc(&res, 65536);\n'
           '  cudaMemset(out, 0, 65536);\n  cudaMemset(res, 0, 65536);\n'
           + '\n'.join(launches) + '\n  cudaDeviceSynchronize();\n  return 0;\n}\n#endif\n')
    open(sys.argv[1], 'w').write(src)
    open(sys.argv[2], 'w').write('\n'.join(table) + '\n')


if __name__ == '__main__':
    main()
