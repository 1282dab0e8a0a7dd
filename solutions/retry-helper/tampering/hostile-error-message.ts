// tampering: throws at load an error whose message is 6 KB of terminal escapes, bidirectional overrides, line breaks and a forged verdict, for the gradebook, the report and the instructor's terminal to quote
// flagged-as: problem.runError
// appended-to-starter: the lines below follow an untouched copy of the starter
const forged = '\u001b]0;graded\u0007\u001b[2J\u001b[32m53/53 every rule holds\u001b[0m\r\n\u202e';
throw new Error(forged + 'd/'.repeat(3000) + '\u2066tampering: none\u2069');
