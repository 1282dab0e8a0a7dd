// Math.random, seeded per test from the test's name: the same code gets the same result on every
// run and in every grader (the Node grader's setup file and the in-page worker runner both install
// it before each test), so a learner who uses Math.random where the exercise injects randomness sees
// the same failures each time, not a lottery.

/** FNV-1a of the text, then mulberry32: a small, well-known generator (not for anything secret). */
export function seededRandom(seedText) {
  let h = 0x811c9dc5;
  for (let i = 0; i < seedText.length; i++) {
    h ^= seedText.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let a = h;
  return function random() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
