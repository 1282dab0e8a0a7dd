// tampering: Unicode bidirectional controls (Trojan Source, CVE-2021-42574) so that the code an instructor reads in an editor is not the code that runs
// flagged-as: problem.bidi
// appended-to-starter: the lines below follow an untouched copy of the starter
export function isExempt(role: string): boolean {
  /*‮ } ⁦if (role === 'learner')⁩ ⁦ begin exempt check*/
  return role !== 'instructor‮ ⁦// exempt learners too⁩ ⁦';
}
