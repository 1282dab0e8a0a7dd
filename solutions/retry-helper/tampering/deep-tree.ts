// tampering: a tree of folders deeper than PATH_MAX (6 KB of names), which fs/promises rm could not remove: the sandbox, hidden tests and all, stayed on disk, and the names were quoted in the gradebook
// appended-to-starter: the lines below follow an untouched copy of the starter
import { mkdirSync, writeFileSync } from 'node:fs';
const name = 'd'.repeat(200);
for (let depth = 0; depth < 31; depth++) {
  mkdirSync(name);
  process.chdir(name);
}
writeFileSync('bottom.txt', 'x');
process.chdir('../'.repeat(31));
throw new Error(`could not remove ${name}/${name}/${name}/${name}/${name}/${name}/${name}/${name}: ENAMETOOLONG`);
