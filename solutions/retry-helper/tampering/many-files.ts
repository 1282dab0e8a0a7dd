// tampering: makes a million empty files (a tmpfs has no inode limit that bubblewrap can set; each one costs the host kernel memory)
// flagged-as: problem.tooManyFiles
// flagged-by-strict-grading
// appended-to-starter: the lines below follow an untouched copy of the starter
import { writeFileSync } from 'node:fs';
try {
  for (let i = 0; i < 1_000_000; i++) writeFileSync(`/tmp/f${i}`, '');
} catch {
  // refused: wait to be noticed
}
