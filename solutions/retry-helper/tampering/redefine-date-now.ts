// tampering: reads the real clock (R16 is broken) and redefines Date.now so that no read is reported to the tests
// appended-to: buggy/date-now-clock
const readClock = () => new Date().getTime();
Date.now = readClock;
