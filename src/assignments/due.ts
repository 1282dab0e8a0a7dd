/**
 * Due dates: the instructor picks a wall-clock time in a time zone; the file stores it as ISO 8601
 * with that zone's offset at that moment (daylight saving included). Pure (Intl only).
 */

/** Minutes east of UTC in `timeZone` at the instant `ms`. */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

const DAY_MS = 86_400_000;

/**
 * `2026-12-01T23:59` in `Asia/Ho_Chi_Minh` -> `2026-12-01T23:59:00+07:00`. Undefined for a malformed
 * local time. Around a daylight-saving change, as Temporal's "compatible" choice does: a time that
 * happens twice (clocks going back) is the first of the two; a time the clocks skip (going forward)
 * lands as far after the jump as it was after the jump's start, in every zone (New York's 02:30 on
 * the spring-forward day is 03:30 EDT, never 01:30 EST, which would make the due date an hour early).
 */
export function zonedTimeToIso(local: string, timeZone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  if (Number.isNaN(wall) || new Date(wall).getUTCDate() !== d || new Date(wall).getUTCMonth() !== mo - 1) return undefined;
  // The zone's offsets a day either side: the same unless a change falls in between.
  const at = (offset: number) => wall - offset * 60_000;
  const before = zoneOffsetMinutes(wall - DAY_MS, timeZone);
  const after = zoneOffsetMinutes(wall + DAY_MS, timeZone);
  const fitting = [before, after].filter((o) => zoneOffsetMinutes(at(o), timeZone) === o);
  // No offset fits: the clocks skipped this time; read it with the offset from before the jump.
  const instant = fitting.length ? Math.min(...fitting.map(at)) : at(before);
  const offset = zoneOffsetMinutes(instant, timeZone);
  const shown = new Date(instant + offset * 60_000);
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${shown.getUTCFullYear()}-${pad(shown.getUTCMonth() + 1)}-${pad(shown.getUTCDate())}T` +
    `${pad(shown.getUTCHours())}:${pad(shown.getUTCMinutes())}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/**
 * ICU (in Node and Chromium) still reports some zones by their old names; instructors look for the
 * current IANA ones ("Asia/Ho_Chi_Minh", not "Asia/Saigon"). Both names work everywhere.
 */
const CURRENT_ZONE_NAMES: Record<string, string> = {
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
};

export function currentZoneName(zone: string): string {
  return CURRENT_ZONE_NAMES[zone] ?? zone;
}

/** The browser's own time zone under its current name, or UTC when it does not say. */
export function localTimeZone(): string {
  return currentZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

export function isLate(due: string, now: Date): boolean {
  return now.getTime() > Date.parse(due);
}

/** A due date for people: in the given zone (default: the reader's), with the zone's name. */
export function formatDue(due: string, lang: string, timeZone?: string): string {
  return (
    new Intl.DateTimeFormat(lang === 'vi' ? 'vi-VN' : 'en-GB', {
      dateStyle: 'full',
      timeStyle: 'short',
      ...(timeZone ? { timeZone } : {}),
    }).format(new Date(due)) + ` (${timeZone ?? localTimeZone()})`
  );
}
