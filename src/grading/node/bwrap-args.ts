// The bubblewrap command line for one confined run. Pure (the host facts come in as data), so
// what a submission can see is reviewable in one place and unit-tested.

export interface SystemEntry {
  /** An absolute host path such as /usr or /lib64. */
  path: string;
  /** Where it points when it is a symlink (merged-/usr systems: /lib -> usr/lib). */
  symlink?: string;
}

export interface BwrapPlan {
  /** Host directories of the system (read-only): /usr, and /bin, /lib... as dirs or symlinks. */
  system: SystemEntry[];
  /** Files for /etc, made by the sandbox (hosts, passwd, group, nsswitch.conf): name -> host path. */
  etc: Record<string, string>;
  /** Further host paths readable at the same path: the Node binary, a type checker's package. */
  readOnly: string[];
  /** The workspace (host path), writable, mounted at the same path so reports can strip it. */
  workspace: string;
  /**
   * A learner's process (strict grading): its workspace is a private tmpfs of `bytes`, with the named
   * entries of the host workspace bound read-only into it, so nothing it writes reaches the host's
   * disk and it can write no more than `bytes` there. Otherwise the host workspace is bound writable.
   */
  privateWorkspace?: { bytes: number; entries: string[] };
  /** Host path -> path inside: a file bound read-only at another path (the Node binary at a neutral one). */
  readOnlyAt?: Record<string, string>;
  /** Entries of the exercise environment's node_modules: name -> host path, read-only. */
  nodeModules: Record<string, string>;
  /** Size of the private /tmp (bytes). */
  tmpBytes: number;
  /** The only environment the command sees. */
  env: Record<string, string>;
  /** prlimit(1) inside the sandbox, and the kernel limits it sets before the command runs. */
  prlimit: string;
  limits: { processes: number; fileBytes: number; dataBytes: number };
  command: string;
  args: string[];
}

/**
 * Every namespace unshared (user, mount, pid, network, ipc, uts, cgroup): the network namespace
 * has only its own loopback; the mount namespace shows only what the plan lists; the pid
 * namespace dies with its first process, taking every descendant with it.
 */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const { options, command } = bwrapCommand(plan);
  return [...options, ...command];
}

/**
 * The same, split: bubblewrap's options (every host path the sandbox is built from), which a confined
 * run passes through a pipe (`--args FD`) so that its pid 1's /proc/1/cmdline shows none of them, and
 * the command (`--` prlimit … the command and its arguments), which stays on the command line.
 */
export function bwrapCommand(plan: BwrapPlan): { options: string[]; command: string[] } {
  const a: string[] = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session', '--hostname', 'grader'];
  for (const entry of plan.system) {
    if (entry.symlink !== undefined) a.push('--symlink', entry.symlink, entry.path);
    else a.push('--ro-bind', entry.path, entry.path);
  }
  for (const [name, source] of Object.entries(plan.etc)) a.push('--ro-bind', source, `/etc/${name}`);
  a.push('--proc', '/proc', '--dev', '/dev');
  // Small private tmpfs for /dev/shm and /tmp: their pages are memory no process's RSS shows.
  a.push('--size', '1048576', '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  a.push('--size', String(plan.tmpBytes), '--tmpfs', '/tmp');
  for (const path of plan.readOnly) a.push('--ro-bind', path, path);
  for (const [path, inside] of Object.entries(plan.readOnlyAt ?? {})) a.push('--ro-bind', path, inside);
  // After /tmp: the workspace usually lives under the host's /tmp and must not be hidden by it.
  if (plan.privateWorkspace) {
    a.push('--size', String(plan.privateWorkspace.bytes), '--tmpfs', plan.workspace);
    for (const entry of plan.privateWorkspace.entries) a.push('--ro-bind', `${plan.workspace}/${entry}`, `${plan.workspace}/${entry}`);
  } else a.push('--bind', plan.workspace, plan.workspace);
  for (const [name, source] of Object.entries(plan.nodeModules)) {
    a.push('--ro-bind', source, `${plan.workspace}/node_modules/${name}`);
  }
  // The root tmpfs bwrap builds (where mount points were made) becomes read-only last.
  a.push('--remount-ro', '/', '--chdir', plan.workspace, '--clearenv');
  for (const [k, v] of Object.entries(plan.env)) a.push('--setenv', k, v);
  const { processes, fileBytes, dataBytes } = plan.limits;
  const command = [
    '--',
    plan.prlimit,
    // Set inside the new user namespace, so the process count is this sandbox's only.
    `--nproc=${processes}:${processes}`,
    `--fsize=${fileBytes}:${fileBytes}`,
    `--data=${dataBytes}:${dataBytes}`,
    '--core=0:0',
    '--',
    plan.command,
    ...plan.args,
  ];
  return { options: a, command };
}
