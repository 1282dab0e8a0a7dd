// tampering: writes forged replies and garbage straight into the grading channel's connection, around the protocol
// flagged-by-strict-grading
// appended-to-starter: the lines below follow an untouched copy of the starter
import { writeSync } from 'node:fs';
// The learner's process was handed its end of the channel as a descriptor; try every low one. Each
// write is small, so it goes out whole, ahead of the host's answer to the module load.
for (let fd = 3; fd < 16; fd++) {
  try {
    writeSync(fd, 'this is not the protocol\n{"t":"reply","call":999999,"ok":true,"value":true}\n');
  } catch {
    // not open, or not writable
  }
}
