// Measures a process tree from /proc (Linux): which processes descend from a pid, and how much
// memory they hold. The confined sandbox polls it to enforce a memory limit on the whole tree
// when no memory cgroup is available to the grader.
import { readdirSync, readFileSync } from 'node:fs';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process ended meanwhile, or /proc is not there
  }
}

/** Child pids of one process, from /proc/<pid>/task/<tid>/children (every thread's children). */
function childrenOf(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tasks) {
    const text = read(`/proc/${pid}/task/${tid}/children`);
    if (text === undefined) return undefined; // kernel without CONFIG_PROC_CHILDREN
    for (const p of text.split(' ')) if (p.trim()) out.push(Number(p));
  }
  return out;
}

/** The parent pid from /proc/<pid>/stat (the command name may hold spaces and parentheses). */
export function parentPidFromStat(stat: string): number | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  const ppid = Number(stat.slice(close + 2).split(' ')[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
}

function descendantsByScan(root: number): number[] {
  const parent = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = parentPidFromStat(read(`/proc/${name}/stat`) ?? '');
    if (ppid === undefined) continue;
    parent.set(ppid, [...(parent.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) for (const c of parent.get(queue.shift()!) ?? []) out.push(c), queue.push(c);
  return out;
}

/** `root` and every process below it. */
export function processTree(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const kids = childrenOf(out[i]!);
    if (kids === undefined) return [root, ...descendantsByScan(root)];
    out.push(...kids);
  }
  return out;
}

/**
 * Private memory of one process in kB: anonymous pages plus shared memory it maps (RssAnon +
 * RssShmem). File-backed pages (the Node binary, libraries) are left out: they are shared by
 * every process and the kernel can drop them, so counting them would count Node ten times.
 */
export function privateKbFromStatus(status: string): number {
  let kb = 0;
  for (const m of status.matchAll(/^(RssAnon|RssShmem):\s+(\d+) kB$/gm)) kb += Number(m[2]);
  return kb;
}

/** Memory held by a tree of processes, in MB. */
export function treeMemoryMb(root: number): number {
  let kb = 0;
  for (const pid of processTree(root)) kb += privateKbFromStatus(read(`/proc/${pid}/status`) ?? '');
  return kb / 1024;
}
