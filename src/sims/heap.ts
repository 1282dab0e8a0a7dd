/** A binary min-heap of (time, id) events; ties pop in insertion order, so runs are reproducible. */
export class EventHeap {
  private times: number[] = [];
  private seqs: number[] = [];
  private ids: number[] = [];
  private seq = 0;

  get size(): number {
    return this.times.length;
  }

  push(time: number, id: number): void {
    const seq = this.seq++;
    let i = this.times.length;
    this.times.push(time);
    this.seqs.push(seq);
    this.ids.push(id);
    // Sift up by moving parents down into the hole, then drop the new event in.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(time, seq, parent)) break;
      this.move(parent, i);
      i = parent;
    }
    this.set(i, time, seq, id);
  }

  /** Remove the earliest event and return its id; its time is in `lastTime`. Caller checks `size` first. */
  pop(): number {
    const id = this.ids[0]!;
    this.lastTime = this.times[0]!;
    const time = this.times.pop()!;
    const seq = this.seqs.pop()!;
    const lastId = this.ids.pop()!;
    const n = this.times.length;
    if (n === 0) return id;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && this.before(this.times[r]!, this.seqs[r]!, l) ? r : l;
      if (!this.beforeSlot(child, time, seq)) break;
      this.move(child, i);
      i = child;
    }
    this.set(i, time, seq, lastId);
    return id;
  }

  lastTime = 0;

  /** Does (time, seq) come before the event in slot j? */
  private before(time: number, seq: number, j: number): boolean {
    const t = this.times[j]!;
    return time < t || (time === t && seq < this.seqs[j]!);
  }

  /** Does the event in slot j come before (time, seq)? */
  private beforeSlot(j: number, time: number, seq: number): boolean {
    const t = this.times[j]!;
    return t < time || (t === time && this.seqs[j]! < seq);
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from]!;
    this.seqs[to] = this.seqs[from]!;
    this.ids[to] = this.ids[from]!;
  }

  private set(i: number, time: number, seq: number, id: number): void {
    this.times[i] = time;
    this.seqs[i] = seq;
    this.ids[i] = id;
  }
}
