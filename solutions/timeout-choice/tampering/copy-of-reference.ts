// tampering: the published reference solution, its comments gone, its own names changed and its layout redone
// full-marks-flagged: problem.copyOfReference

export interface TimeoutOptions {
	falseTimeoutRate: number;
	paddingMs?: number;
}
export function percentile(samples: readonly number[], p: number): number {
	validate(samples);
	if (!(p > 0 && p <= 100)) throw new RangeError(`p must be in (0, 100], got ${p}`);
	const ordered = copySorted(samples);
	return ordered[rankOf(p, ordered.length) - 1]!;
}
export function timeoutFor(samples: readonly number[], opts: TimeoutOptions): number {
	validate(samples);
	const share = opts.falseTimeoutRate;
	if (!(share > 0 && share < 1)) throw new RangeError(`falseTimeoutRate must be a fraction in (0, 1), got ${share}`);
	const pad = opts.paddingMs ?? 0;
	if (!(Number.isFinite(pad) && pad >= 0)) throw new RangeError(`paddingMs must be a finite number >= 0, got ${pad}`);
	const target = percentile(samples, 100 * (1 - share));
	return Math.ceil(target + pad);
}
export function falseTimeoutRate(samples: readonly number[], timeoutMs: number): number {
	validate(samples);
	if (!(timeoutMs >= 0)) throw new RangeError(`timeoutMs must be a number >= 0, got ${timeoutMs}`);
	let over = 0;
	for (const latency of samples) if (latency > timeoutMs) over++;
	return over / samples.length;
}
function validate(samples: readonly number[]): void {
	if (samples.length === 0) throw new RangeError('samples must not be empty');
	samples.forEach((latency, i) => {
		if (!(Number.isFinite(latency) && latency >= 0)) throw new RangeError(`samples[${i}] must be a finite latency >= 0, got ${latency}`);
	});
}
function copySorted(samples: readonly number[]): number[] {
	return [...samples].sort((a, b) => a - b);
}
function rankOf(p: number, n: number): number {
	const product = (p / 100) * n;
	const rounded = Math.round(product);
	const position = Math.abs(product - rounded) < 1e-9 ? rounded : Math.ceil(product);
	return Math.min(n, Math.max(1, position));
}
