// tampering: kills the process that started it (the runner) in the middle of the run (in strict grading, the
// parent it can see is its own sandbox's init, which ignores the signal: nothing to notice, the code review flags it)
// appended-to-starter: the lines below follow an untouched copy of the starter
setTimeout(() => process.kill(process.ppid, 'SIGKILL'), 50);
